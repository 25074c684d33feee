# gdb script (gdb -p PID -batch -x thread_records.py): prints every thread's OTEP-4947 record, as
# a profiler outside the process reads it: the TLS pointer otel_thread_ctx_v1 (a dynamic TLS
# symbol of libspanflight.so, resolved per thread by gdb through libthread_db), then through it
# the record's 28-byte header and its attrs_data_size bytes of attributes. One line per thread:
#   SFREC <lwp> <pointer, hex; 0 = none> <header, hex | -> <attributes, hex | -> <thread name>
#   SFERR <lwp> <what failed>
#   SFEND <threads>
# Read by io.spanflight.smoke.outside.GdbThreadRecords; nothing here interprets the bytes.
import gdb

HEADER_SIZE = 28
ATTRS_CAPACITY = 612

inferior = gdb.selected_inferior()
threads = sorted(inferior.threads(), key=lambda t: t.ptid[1])
for thread in threads:
    lwp = thread.ptid[1]
    try:
        thread.switch()
        pointer = int(gdb.parse_and_eval("*(unsigned long *) &otel_thread_ctx_v1"))
        if pointer == 0:
            print("SFREC %d 0 - - %s" % (lwp, thread.name))
            continue
        header = bytes(inferior.read_memory(pointer, HEADER_SIZE))
        size = min(int.from_bytes(header[26:28], "little"), ATTRS_CAPACITY)
        attrs = bytes(inferior.read_memory(pointer + HEADER_SIZE, size)).hex() if size else "-"
        print("SFREC %d %x %s %s %s" % (lwp, pointer, header.hex(), attrs, thread.name))
    except Exception as e:  # one thread's failure is reported, the others are still read
        print("SFERR %d %s" % (lwp, str(e).replace("\n", " ")))
print("SFEND %d" % len(threads))

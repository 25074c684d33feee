// Decodes gzipped pprof files with Datadog's pprof-format (an independent decoder) and prints
// one line per profile and per sample, plus "error ..." lines for broken references.
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const { Profile } = require('pprof-format');

for (const file of process.argv.slice(2)) {
  const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(file)));
  const s = p.stringTable.strings;
  const str = (i) => s[Number(i)];
  if (s[0] !== '') console.log('error string_table[0] is not empty');
  const functions = new Map();
  for (const f of p.function) {
    if (Number(f.id) === 0 || functions.has(Number(f.id))) console.log('error function id ' + f.id);
    functions.set(Number(f.id), f);
  }
  const locations = new Map();
  for (const l of p.location) {
    if (Number(l.id) === 0 || locations.has(Number(l.id))) console.log('error location id ' + l.id);
    for (const line of l.line) {
      if (!functions.has(Number(line.functionId))) console.log('error function_id ' + line.functionId);
    }
    locations.set(Number(l.id), l);
  }
  const types = p.sampleType.map((t) => str(t.type) + '/' + str(t.unit)).join(',');
  const period = p.periodType ? str(p.periodType.type) + '/' + str(p.periodType.unit) : '-';
  console.log(`profile types=${types} periodType=${period} period=${p.period}` +
    ` time=${p.timeNanos} duration=${p.durationNanos} mappings=${p.mapping.length}`);
  for (const sample of p.sample) {
    const frames = sample.locationId.map((id) => {
      const l = locations.get(Number(id));
      if (!l) { console.log('error location_id ' + id); return '?'; }
      const line = l.line[0];
      const f = functions.get(Number(line.functionId));
      return `${str(f.name)}|${str(f.systemName)}|${str(f.filename)}|${line.line}`;
    });
    const labels = sample.label.map((l) => `${str(l.key)}=${str(l.str)}`).join(',');
    console.log(`sample values=${sample.value.join(',')} labels=${labels} stack=${frames.join(';')}`);
  }
}

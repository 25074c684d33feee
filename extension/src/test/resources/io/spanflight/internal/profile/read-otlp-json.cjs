// Parses OTLP/JSON files with JSON.parse and prints the facts the test compares with the binary
// request: table sizes, links, and per profile the sample count, value sum and sample attributes.
'use strict';
const fs = require('fs');

for (const file of process.argv.slice(2)) {
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  const d = r.dictionary;
  console.log(`tables strings=${d.stringTable.length} functions=${d.functionTable.length}` +
    ` locations=${d.locationTable.length} stacks=${d.stackTable.length} links=${d.linkTable.length}`);
  for (const link of d.linkTable.slice(1)) console.log(`link ${link.traceId} ${link.spanId}`);
  const rp = r.resourceProfiles[0];
  const service = rp.resource.attributes.find((a) => a.key === 'service.name');
  console.log(`service ${service.value.stringValue}`);
  for (const p of rp.scopeProfiles[0].profiles) {
    let sum = 0n;
    let count = 0;
    const attributes = new Set();
    for (const s of p.samples) {
      for (const v of s.values) { sum += BigInt(v); count++; }
      for (const i of s.attributeIndices || []) {
        const a = d.attributeTable[i];
        attributes.add(`${d.stringTable[a.keyStrindex]}=${a.value.stringValue}`);
      }
    }
    console.log(`profile type=${d.stringTable[p.sampleType.typeStrindex]} samples=${count} sum=${sum}` +
      ` time=${p.timeUnixNano} firstStack=${p.samples[0].stackIndex}` +
      ` attributes=${[...attributes].sort().join(',')}`);
  }
}

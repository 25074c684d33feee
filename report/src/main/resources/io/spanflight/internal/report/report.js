// Spanflight report: reads the embedded JSON (see ReportJson.java) and draws, for the selected
// endpoint, trace or span, a flame graph per sample type (DOM, no library), a search that
// highlights matching frames, click-to-zoom, and a top-methods table.
(function () {
  'use strict';
  var started = performance.now();
  var D = JSON.parse(document.getElementById('spanflight-data').textContent);
  var names = D.names, parent = D.parent, frame = D.frame, N = parent.length;
  var ROW = 18, MAX_FRAMES = 12000, TRACE_PAGE = 100;

  // children of each trie node (parents always come before their children)
  var childStart = new Int32Array(N + 1), childList = new Int32Array(Math.max(N - 1, 0)), depth = new Int32Array(N);
  (function () {
    var i, counts = new Int32Array(N), fill;
    for (i = 1; i < N; i++) { counts[parent[i]]++; depth[i] = depth[parent[i]] + 1; }
    for (i = 0; i < N; i++) childStart[i + 1] = childStart[i] + counts[i];
    fill = childStart.slice(0, N);
    for (i = 1; i < N; i++) childList[fill[parent[i]]++] = i;
  })();

  var typesBySlot = {};
  D.types.forEach(function (t) { typesBySlot[t.i] = t; });
  var state = { sel: { kind: 'all', index: -1 }, slot: -1, label: null, focus: 0, search: '', sort: 'self', tracesShown: TRACE_PAGE };
  var view = null; // {self, total, slot, type} for the current selection and type

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ---- values ---------------------------------------------------------------------------------
  function fmtNanos(ns) {
    if (ns >= 6e10) return (ns / 6e10).toFixed(1) + ' min';
    if (ns >= 1e9) return (ns / 1e9).toFixed(2) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(1) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(1) + ' µs';
    return Math.round(ns) + ' ns';
  }
  function fmtBytes(b) {
    if (b >= 1 << 30) return (b / (1 << 30)).toFixed(2) + ' GB';
    if (b >= 1 << 20) return (b / (1 << 20)).toFixed(1) + ' MB';
    if (b >= 1 << 10) return (b / (1 << 10)).toFixed(1) + ' KB';
    return b + ' B';
  }
  function fmt(type, v) {
    if (type.unit === 'nanoseconds') return fmtNanos(v);
    if (type.unit === 'bytes') return fmtBytes(v);
    if (type.unit === 'count') {
      if (type.type === 'method_invocations') return v + (v === 1 ? ' call' : ' calls');
      var count = v + (v === 1 ? ' sample' : ' samples');
      return type.period > 0 && type.periodUnit === 'nanoseconds' ? count + ' (≈' + fmtNanos(v * type.period) + ')' : count;
    }
    return v + ' ' + type.unit;
  }
  function pct(v, of) { return of > 0 ? (100 * v / of).toFixed(1) + '%' : ''; }

  // ---- groups ---------------------------------------------------------------------------------
  function pairLists(sel, slot) {
    var lists = [];
    function add(data) { if (data && data[slot]) lists.push(data[slot]); }
    if (sel.kind === 'all') D.endpoints.forEach(function (e) { add(e.data); });
    else if (sel.kind === 'endpoint') add(D.endpoints[sel.index].data);
    else if (sel.kind === 'trace') D.traces[sel.index][3].forEach(function (s) { add(D.spans[s][3]); });
    else if (sel.kind === 'span') add(D.spans[sel.index][3]);
    return lists;
  }
  function totalOf(lists) {
    var sum = 0;
    lists.forEach(function (l) { for (var i = 1; i < l.length; i += 2) sum += l[i]; });
    return sum;
  }
  function typesWithData(sel) {
    return D.types.filter(function (t) { return totalOf(pairLists(sel, t.i)) > 0; });
  }
  function selectionTitle(sel) {
    if (sel.kind === 'all') return 'All samples';
    if (sel.kind === 'endpoint') return 'Endpoint ' + D.endpoints[sel.index].name;
    if (sel.kind === 'trace') return 'Trace ' + D.traces[sel.index][0];
    var s = D.spans[sel.index];
    return 'Span ' + s[0] + ' of trace ' + D.traces[s[1]][0];
  }
  function selectionMeta(sel) {
    if (sel.kind === 'trace') {
      var t = D.traces[sel.index];
      return t[2] + ' · first sample ' + new Date(t[1]).toLocaleTimeString() + ' · ' + t[3].length + ' span(s)';
    }
    if (sel.kind === 'span') return D.spans[sel.index][2];
    if (sel.kind === 'all') return D.endpoints.length + ' endpoint(s), ' + D.traces.length + ' trace(s)';
    return '';
  }

  function buildView(sel, slot) {
    var self = new Float64Array(N), total = new Float64Array(N), i, n;
    pairLists(sel, slot).forEach(function (l) {
      for (var k = 0; k < l.length; k += 2) self[l[k]] += l[k + 1];
    });
    for (i = 0; i < N; i++) total[i] = self[i];
    for (n = N - 1; n > 0; n--) total[parent[n]] += total[n];
    return { self: self, total: total, slot: slot, type: typesBySlot[slot] };
  }

  // ---- flame graph ----------------------------------------------------------------------------
  function sortedChildren(n, total) {
    var kids = [];
    for (var i = childStart[n]; i < childStart[n + 1]; i++) if (total[childList[i]] > 0) kids.push(childList[i]);
    kids.sort(function (a, b) { return total[b] - total[a]; });
    return kids;
  }
  function colour(name) {
    var h = 0, cls = name.lastIndexOf('.') > 0 ? name.substring(0, name.lastIndexOf('.')) : name;
    for (var i = 0; i < cls.length; i++) h = (h * 31 + cls.charCodeAt(i)) | 0;
    var jdk = /^(java|javax|jdk|sun|com\.sun)\./.test(name);
    var hue = jdk ? 200 + (Math.abs(h) % 30) : 10 + (Math.abs(h) % 45);
    return 'hsl(' + hue + ',' + (jdk ? 45 : 80) + '%,' + (jdk ? 72 : 62 + (Math.abs(h >> 8) % 12)) + '%)';
  }
  function frameDiv(node, left, width, row, ancestor) {
    var d = el('div', ancestor ? 'frame ancestor' : 'frame');
    var name = node === 0 ? 'all' : names[frame[node]];
    d.style.left = (left * 100) + '%';
    d.style.width = (width * 100) + '%';
    d.style.top = (row * ROW) + 'px';
    d.style.background = node === 0 ? '#d5d9e2' : colour(name);
    d.dataset.node = node;
    d.dataset.name = name;
    if (width * flameWidth() > 30) d.textContent = shortName(name);
    return d;
  }
  // com.example.Outer$Inner.method -> Outer$Inner.method: the method stays readable in narrow frames
  // (hidden classes keep their owner: LambdaForm$MH.0x0000000049042400.invokeExact_MT)
  function shortName(name) {
    var paren = name.indexOf('('), head = paren > 0 ? name.substring(0, paren) : name;
    var method = head.lastIndexOf('.'), cls = method > 0 ? head.lastIndexOf('.', method - 1) : -1;
    if (cls > 0 && head.substring(cls + 1, cls + 3) === '0x') cls = head.lastIndexOf('.', cls - 1);
    return cls >= 0 ? name.substring(cls + 1) : name;
  }
  var widthCache = 0;
  function flameWidth() { return widthCache || 1000; }

  function renderFlame() {
    var t = performance.now(), box = $('flame'), total = view.total, focus = state.focus;
    widthCache = box.clientWidth;
    box.textContent = '';
    if (total[0] <= 0) {
      box.appendChild(el('div', 'empty', 'No samples of this type here.'));
      box.style.height = '';
      return;
    }
    if (total[focus] <= 0) focus = state.focus = 0;
    var frag = document.createDocumentFragment(), path = [], a, rows = 0, count = 0;
    for (a = focus; a !== -1; a = parent[a]) path.unshift(a);
    path.forEach(function (node, row) {
      frag.appendChild(frameDiv(node, 0, 1, row, node !== focus));
      count++;
    });
    var minWidth = 0.5 / flameWidth(), base = path.length - 1, scale = total[focus];
    var stack = [[focus, 0, base]];
    while (stack.length && count < MAX_FRAMES) {
      var item = stack.pop(), node = item[0], left = item[1], row = item[2], x = left;
      rows = Math.max(rows, row);
      var kids = sortedChildren(node, total);
      for (var i = 0; i < kids.length; i++) {
        var w = total[kids[i]] / scale;
        if (w >= minWidth) {
          frag.appendChild(frameDiv(kids[i], x, w, row + 1, false));
          count++;
          stack.push([kids[i], x, row + 1]);
          rows = Math.max(rows, row + 1);
        }
        x += w;
      }
    }
    box.style.height = ((rows + 1) * ROW + 2) + 'px';
    box.appendChild(frag);
    box.dataset.frames = count;
    applySearch();
    window.spanflightReport.lastFlameMs = performance.now() - t;
  }

  function applySearch() {
    var box = $('flame'), term = state.search.toLowerCase(), frames = box.querySelectorAll('.frame');
    box.classList.toggle('searching', term.length > 0);
    for (var i = 0; i < frames.length; i++) {
      frames[i].classList.toggle('match', term.length > 0 && frames[i].dataset.name.toLowerCase().indexOf(term) >= 0);
    }
    if (!term) { $('search-result').textContent = ''; return; }
    // the share of the matching call paths: a match below another match is not counted again
    var matchedAbove = new Uint8Array(N), sum = 0, total = view.total;
    for (var n = 1; n < N; n++) {
      if (total[n] <= 0) continue;
      var hit = names[frame[n]].toLowerCase().indexOf(term) >= 0;
      if (hit && !matchedAbove[parent[n]]) sum += total[n];
      matchedAbove[n] = matchedAbove[parent[n]] || hit ? 1 : 0;
    }
    $('search-result').textContent = 'matched ' + fmt(view.type, sum) + ' of ' + fmt(view.type, total[0]) + ' (' + pct(sum, total[0]) + ')';
  }

  // ---- top methods ----------------------------------------------------------------------------
  function renderTopMethods() {
    var self = view.self, byName = {}, stamp = new Int32Array(names.length), n, a, f, rows = [];
    function entry(f) { return byName[f] || (byName[f] = { f: f, self: 0, total: 0 }); }
    for (n = 1; n < N; n++) {
      if (self[n] <= 0) continue;
      entry(frame[n]).self += self[n];
      for (a = n; a > 0; a = parent[a]) { // a method counts once per path, also when recursive
        f = frame[a];
        if (stamp[f] !== n) { stamp[f] = n; entry(f).total += self[n]; }
      }
    }
    for (f in byName) rows.push(byName[f]);
    rows.sort(function (x, y) { return y[state.sort] - x[state.sort] || x.f - y.f; });
    var body = $('top-methods').tBodies[0], all = view.total[0];
    body.textContent = '';
    rows.slice(0, 50).forEach(function (r) {
      var tr = el('tr');
      var m = el('td', 'method', names[r.f]);
      m.title = 'search for this method';
      tr.appendChild(m);
      tr.appendChild(el('td', 'num', fmt(view.type, r.self)));
      tr.appendChild(el('td', 'num', pct(r.self, all)));
      tr.appendChild(el('td', 'num', fmt(view.type, r.total)));
      tr.appendChild(el('td', 'num', pct(r.total, all)));
      body.appendChild(tr);
    });
    document.querySelectorAll('#top-methods th.sortable').forEach(function (th) {
      th.classList.toggle('sorted', th.dataset.sort === state.sort);
    });
  }

  // ---- selection ------------------------------------------------------------------------------
  function select(sel) {
    var t = performance.now();
    state.sel = sel;
    state.focus = 0;
    $('selection-title').textContent = selectionTitle(sel);
    $('selection-meta').textContent = selectionMeta(sel);
    document.querySelectorAll('.item.selected').forEach(function (e) { e.classList.remove('selected'); });
    var item = document.querySelector('.item[data-kind="' + sel.kind + '"][data-index="' + sel.index + '"]');
    if (item) item.classList.add('selected');
    var types = typesWithData(sel), tabs = $('type-tabs');
    tabs.textContent = '';
    var chosen = types.filter(function (x) { return x.label === state.label; })[0] || types[0];
    types.forEach(function (type) {
      var b = el('button', type === chosen ? 'active' : '', type.label + ' · ' + fmt(type, totalOf(pairLists(sel, type.i))));
      b.type = 'button';
      b.setAttribute('role', 'tab');
      b.dataset.label = type.label;
      b.addEventListener('click', function () { state.label = type.label; select(state.sel); });
      tabs.appendChild(b);
    });
    view = buildView(sel, chosen ? chosen.i : -1);
    if (!chosen) view.type = { unit: '' };
    renderFlame();
    renderTopMethods();
    window.spanflightReport.lastSelectMs = performance.now() - t;
  }

  function item(kind, index, name, stats, mono) {
    var li = el('li'), d = el('div', 'item');
    d.dataset.kind = kind;
    d.dataset.index = index;
    d.appendChild(el('div', 'name' + (mono ? ' mono' : ''), name));
    if (stats) d.appendChild(el('div', 'stats', stats));
    li.appendChild(d);
    return li;
  }
  function groupStats(sel) {
    return typesWithData(sel).slice(0, 3).map(function (t) {
      return t.label + ' ' + fmt(t, totalOf(pairLists(sel, t.i))).replace(/ samples? \(≈/, ' (');
    }).join(' · ');
  }

  function renderEndpoints() {
    var ul = $('endpoints');
    ul.appendChild(item('all', -1, 'All samples', groupStats({ kind: 'all', index: -1 })));
    D.endpoints.forEach(function (e, i) { ul.appendChild(item('endpoint', i, e.name, groupStats({ kind: 'endpoint', index: i }))); });
  }

  // the cost table comes formatted from Java (EndpointCostTable), the same text as the terminal summary
  function renderCosts() {
    var c = D.costs;
    if (!c || c.rows.length === 0) { $('costs').hidden = true; return; }
    var head = el('tr');
    c.header.forEach(function (h, i) { head.appendChild(el('th', i > 0 ? 'num' : '', h)); });
    $('endpoint-costs').tHead.appendChild(head);
    var body = $('endpoint-costs').tBodies[0];
    c.rows.forEach(function (row) {
      var tr = el('tr');
      row.forEach(function (cell, i) { tr.appendChild(el('td', i > 0 ? 'num' : 'endpoint', cell)); });
      body.appendChild(tr);
    });
    $('costs-note').textContent = c.note;
  }

  function traceMatches(t, term) {
    if (!term) return true;
    if (t[0].indexOf(term) >= 0 || t[2].toLowerCase().indexOf(term) >= 0) return true;
    return t[3].some(function (s) { return D.spans[s][0].indexOf(term) >= 0; });
  }
  function renderTraces() {
    var ul = $('traces'), term = $('trace-filter').value.trim().toLowerCase(), shown = 0, matching = 0;
    ul.textContent = '';
    D.traces.forEach(function (t, i) {
      if (!traceMatches(t, term)) return;
      matching++;
      if (shown >= state.tracesShown) return;
      shown++;
      var li = item('trace', i, t[0], t[2] + ' · ' + new Date(t[1]).toLocaleTimeString() + ' · ' + groupStats({ kind: 'trace', index: i }), true);
      var spans = el('ul', 'spans');
      t[3].forEach(function (s) {
        spans.appendChild(item('span', s, 'span ' + D.spans[s][0], groupStats({ kind: 'span', index: s }), true));
      });
      li.appendChild(spans);
      ul.appendChild(li);
    });
    $('trace-count').textContent = '(' + (term ? matching + ' of ' : '') + D.traces.length + ')';
    $('more-traces').hidden = shown >= matching;
    var current = document.querySelector('.item[data-kind="' + state.sel.kind + '"][data-index="' + state.sel.index + '"]');
    if (current) current.classList.add('selected');
  }

  function showTooltip(ev) {
    var tip = $('tooltip'), target = ev.target.closest ? ev.target.closest('.frame') : null;
    if (!target) { tip.hidden = true; return; }
    var node = +target.dataset.node, total = view.total;
    tip.textContent = target.dataset.name + '\ntotal ' + fmt(view.type, total[node]) + ' (' + pct(total[node], total[0]) + ')'
      + '\nself ' + fmt(view.type, view.self[node]) + ' (' + pct(view.self[node], total[0]) + ')\nclick to zoom';
    tip.hidden = false;
    tip.style.left = Math.min(ev.clientX + 12, window.innerWidth - tip.offsetWidth - 4) + 'px';
    tip.style.top = (ev.clientY + 14) + 'px';
  }

  function wire() {
    $('sidebar').addEventListener('click', function (ev) {
      var it = ev.target.closest('.item');
      if (it) select({ kind: it.dataset.kind, index: +it.dataset.index });
    });
    $('flame').addEventListener('click', function (ev) {
      var f = ev.target.closest('.frame');
      if (f) { state.focus = +f.dataset.node; renderFlame(); }
    });
    $('flame').addEventListener('mousemove', showTooltip);
    $('flame').addEventListener('mouseleave', function () { $('tooltip').hidden = true; });
    $('reset-zoom').addEventListener('click', function () { state.focus = 0; renderFlame(); });
    $('search').addEventListener('input', function () { state.search = $('search').value.trim(); applySearch(); });
    $('trace-filter').addEventListener('input', function () { state.tracesShown = TRACE_PAGE; renderTraces(); });
    $('more-traces').addEventListener('click', function () { state.tracesShown += TRACE_PAGE; renderTraces(); });
    $('top-methods').addEventListener('click', function (ev) {
      var th = ev.target.closest('th.sortable');
      if (th) { state.sort = th.dataset.sort; renderTopMethods(); return; }
      var m = ev.target.closest('td.method');
      if (m) { $('search').value = m.textContent; state.search = m.textContent; applySearch(); }
    });
    var resizeTimer = 0;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(renderFlame, 150);
    });
  }

  window.spanflightReport = { data: D };
  document.title = D.title + ' · Spanflight report';
  $('title').textContent = D.title;
  $('meta').textContent = D.samples + ' samples from ' + D.requests + ' export request(s)'
    + (D.start ? ', ' + new Date(D.start).toLocaleString() + ' – ' + new Date(D.end).toLocaleTimeString() : '')
    + ' · generated ' + new Date(D.generated).toLocaleString();
  renderEndpoints();
  renderCosts();
  renderTraces();
  wire();
  select({ kind: 'all', index: -1 });
  window.spanflightReport.renderMs = performance.now() - started;
  document.body.dataset.ready = 'true';
})();

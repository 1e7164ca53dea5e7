// Run inside the bundle or program page by probe_page.py (appended after the
// page's own script): measures what Chromium laid out and acts as a reader
// would, by dispatching events, and writes what it saw as JSON into
// #probe-result. It reads the page only through the DOM: sizes from
// getBoundingClientRect, text from the elements the page shows.
(function () {
  'use strict';
  var out = { plans: [], regions: [], axes: [], hovers: [], errors: [] };
  function fail(message) { out.errors.push(String(message)); }
  var screen = { width: window.innerWidth, height: window.innerHeight };

  function onFirstScreen(element) {
    var box = element.getBoundingClientRect();
    return (box.width > 0 || box.height > 0) && box.top < screen.height && box.bottom >= 0;
  }
  function wholeOnFirstScreen(element) {
    var box = element.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= screen.height;
  }

  // What the first screen shows, before anything is clicked: the text laid
  // out there, the charts against S, and per program arena its two plans.
  function firstScreen() {
    var seen = { text: '', sCharts: 0, arenas: [] };
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    var parts = [];
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim() || node.parentElement.closest('script, style, template')) continue;
      var range = document.createRange();
      range.selectNodeContents(node);
      var box = range.getBoundingClientRect();
      if (box.height > 0 && box.top < screen.height && box.bottom > 0) parts.push(node.textContent.trim());
    }
    seen.text = parts.join(' ');
    document.querySelectorAll('svg.growth g.chart').forEach(function (g) { if (onFirstScreen(g)) ++seen.sCharts; });
    document.querySelectorAll('section').forEach(function (section) {
      var arena = { entry: section.dataset.entry, plans: [] };
      var state = section.querySelector('.state-box');
      arena.stateText = state && onFirstScreen(state) ? state.textContent : '';
      section.querySelectorAll('.plan').forEach(function (div) {
        var svg = div.querySelector('svg.arena-picture');
        if (!svg) return;
        var size = svg.querySelector('line.arena-size'), bound = svg.querySelector('line.lower-bound');
        var stateRects = [];
        svg.querySelectorAll('rect.state').forEach(function (r) { stateRects.push(+r.dataset.b); });
        arena.plans.push({
          label: div.dataset.label || '', whole: wholeOnFirstScreen(svg),
          arena: size && onFirstScreen(size) ? +size.dataset.bytes : -1,
          bound: bound && onFirstScreen(bound) ? +bound.dataset.bytes : -1,
          state: stateRects
        });
      });
      seen.arenas.push(arena);
    });
    return seen;
  }
  out.firstScreen = firstScreen();
  var program = document.body.classList.contains('program');

  function center(element) {
    var box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2, box: box };
  }

  // Every tab of every entry point, shown in turn as a reader clicks it; on
  // a program's page every plan (two per arena, side by side, no tabs).
  var tabs = Array.prototype.slice.call(document.querySelectorAll('.tab'));
  if (!program && !tabs.length) fail('no tabs');
  var divs = program ? Array.prototype.slice.call(document.querySelectorAll('.plan')) : [];
  if (program && !divs.length) fail('no plans');
  function visit(div, what) {
    if (!div || div.hidden) { fail(what + ' shows no plan'); return; }
    var name = '@' + div.dataset.entry + (program ? ' ' + div.dataset.label : ' S=' + div.dataset.s);
    var svg = div.querySelector('.picture svg');
    if (!svg) { fail(name + ': no picture'); return; }
    out.plans.push(name);
    var groups = program ? [svg] : Array.prototype.slice.call(svg.querySelectorAll('g.region'));
    groups.forEach(function (g) {
      var rects = g.querySelectorAll('rect.buf, rect.placed, rect.own, rect.agg');
      var tall = 0;
      rects.forEach(function (r) { if (r.getBoundingClientRect().height >= 2) ++tall; });
      out.regions.push({ plan: name, region: program ? 'arena' : g.dataset.region,
                         rects: rects.length, tall: tall });
    });
    // Hover: a few rectangles of each kind, the event dispatched on each.
    var picks = [];
    ['rect[data-b]', 'rect[data-p]'].forEach(function (selector) {
      var all = svg.querySelectorAll(selector);
      if (all.length) picks.push(all[0], all[Math.floor(all.length / 2)], all[all.length - 1]);
    });
    picks.forEach(function (rect) {
      var at = center(rect);
      rect.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, clientX: at.x, clientY: at.y }));
      var tip = document.getElementById('tip');
      out.hovers.push({
        entry: div.dataset.entry, s: +div.dataset.s, label: div.dataset.label || '',
        kind: rect.dataset.b !== undefined ? 'buffer' : 'placed',
        index: +(rect.dataset.b !== undefined ? rect.dataset.b : rect.dataset.p),
        shown: !!tip && !tip.hidden && tip.getBoundingClientRect().height > 0,
        text: tip ? tip.textContent : ''
      });
      rect.dispatchEvent(new MouseEvent('mouseout', { bubbles: true }));
    });
    // A click on an empty place of the time axis says what is live there.
    var frame = svg.querySelector('rect.frame');
    if (frame) {
      var box = frame.getBoundingClientRect();
      svg.dispatchEvent(new MouseEvent('click', {
        bubbles: true, clientX: box.left + box.width * 0.37, clientY: box.top + 2 }));
      var live = (div.querySelector('.live-box b') || div.closest('section').querySelector('.live-box b'));
      out.liveTitle = live ? live.textContent : '';
    }
  }
  tabs.forEach(function (tab) {
    tab.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    visit(document.getElementById('plan-' + tab.dataset.plan), 'tab ' + tab.textContent);
  });
  divs.forEach(function (div) { visit(div, 'plan ' + div.id); });

  // The S axis of every growth chart: each mark (points, tick labels) at
  // x = a + b*S, a and b from the smallest and largest S.
  document.querySelectorAll('svg.growth').forEach(function (svg) {
    var charts = [];
    svg.querySelectorAll('[data-s]').forEach(function (mark) {
      if (mark.classList.contains('cut')) return;
      var chart = mark.closest('g.chart') || svg;
      var marks = charts.filter(function (c) { return c.element === chart; })[0];
      if (!marks) charts.push(marks = { element: chart, marks: [] });
      var box = mark.getBoundingClientRect();
      marks.marks.push({ s: +mark.dataset.s, x: box.left + box.width / 2,
                         point: mark.tagName === 'circle' });
    });
    charts.forEach(function (chart) {
      var marks = chart.marks;
      marks.sort(function (a, b) { return a.s - b.s; });
      var lo = marks[0], hi = marks[marks.length - 1];
      var slope = (hi.x - lo.x) / (hi.s - lo.s), worst = 0;
      marks.forEach(function (m) { worst = Math.max(worst, Math.abs(lo.x + (m.s - lo.s) * slope - m.x)); });
      var sizes = {};
      marks.forEach(function (m) { if (m.point) sizes[m.s] = true; });
      out.axes.push({ section: svg.closest('section').dataset.entry, marks: marks.length,
                      planned: Object.keys(sizes).length, deviation: worst });
    });
  });

  // Cuts between the pieces of a parametric plan, where the S axis has them.
  out.cuts = [];
  document.querySelectorAll('svg.growth line.cut').forEach(function (cut) {
    out.cuts.push({ s: +cut.dataset.s, x: cut.getBoundingClientRect().left });
  });

  // Search: a value's name finds it; choosing the result pins it.
  var search = document.getElementById('search');
  var first = document.querySelector('.plan:not([hidden]) .picture rect[data-b]');
  if (search && first) {
    // The value's name as the tooltip showed it ("%12 = torch.aten.mm").
    var at = center(first);
    first.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, clientX: at.x, clientY: at.y }));
    var wanted = document.getElementById('tip').textContent.split(' = ')[0];
    search.value = wanted;
    search.dispatchEvent(new Event('input', { bubbles: true }));
    var rows = document.querySelectorAll('#results div');
    out.search = { query: wanted, results: rows.length };
    if (rows.length) {
      rows[0].dispatchEvent(new MouseEvent('click', { bubbles: true }));
      var selected = document.querySelector('.plan:not([hidden]) rect.selected');
      var details = document.querySelector('.plan:not([hidden]) .details') ||
                    selected && selected.closest('section').querySelector('.details');
      out.search.selected = !!selected;
      out.search.details = details ? details.textContent : '';
    }
  }

  var pre = document.createElement('pre');
  pre.id = 'probe-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();

// The bundle page's script (lib/Report/BundleHtml.cpp embeds it). It reads
// the plans from the JSON in #plan-data and answers the reader: the tabs
// draw a plan's picture when first shown; pointing at a rectangle shows its
// value, op, source location, bytes, live range, region and offset; a
// click keeps them, or, on an empty place, says what is live at that op;
// the search box finds values and ops by name. No network, no libraries.
// The program page (ProgramHtml.cpp) shows two plans of an arena at once,
// counts instructions instead of ops, and marks mutable buffers as state.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('plan-data').textContent);
  var tip = document.getElementById('tip');
  var maxResults = 40;
  var unit = data.unit || 'op';

  function bytes(n) {
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], v = n, u = 0;
    while (v >= 1024 && u < 4) { v /= 1024; ++u; }
    return u === 0 ? n + ' B' : v.toFixed(1) + ' ' + units[u];
  }

  function planDiv(id) { return document.getElementById('plan-' + id); }

  // A rectangle's value: kind 'b' (a planned buffer) or 'p' (a value
  // written in place), index into the plan's list.
  function describe(plan, kind, i) {
    var r = plan[kind][i];
    var d = {
      value: r[0], op: data.ops[r[1]], location: data.locations[r[2]],
      size: r[3], start: r[4], end: r[5], region: plan.regions[r[6]],
      offset: kind === 'b' ? r[7] : 0, kernel: kind === 'b' ? r[8] : -1,
      inPlace: kind === 'p', state: kind === 'b' && r[9] === 1
    };
    return d;
  }

  function describeText(d) {
    var where = d.region === 'heap' ? 'the heap' : d.region;
    var lines = [
      d.value + ' = ' + d.op,
      d.location || '(no source location)',
      d.size + ' bytes (' + bytes(d.size) + ') at offset ' + d.offset +
        ' in ' + where + (d.inPlace ? ', written in place' : ''),
      'live [' + d.start + ', ' + d.end + '): ' + (d.end - d.start) + ' ' + unit + 's'
    ];
    if (d.state) lines.push('mutable buffer: state kept between calls');
    if (d.kernel >= 0) lines.push('written by fused kernel ' + d.kernel);
    return lines.join('\n');
  }

  function rectInfo(rect) {
    var div = rect.closest('.plan');
    if (!div) return null;
    var plan = data.plans[+div.dataset.plan];
    if (rect.dataset.b !== undefined) return describe(plan, 'b', +rect.dataset.b);
    if (rect.dataset.p !== undefined) return describe(plan, 'p', +rect.dataset.p);
    if (rect.dataset.n !== undefined)
      return { text: rect.dataset.n + ' buffers too small to draw, merged' };
    return null;
  }

  // The picture of a plan, drawn from its template when first shown.
  function draw(div) {
    var holder = div.querySelector('.picture');
    if (!holder.firstChild) {
      var source = div.querySelector('template.picture-src');
      holder.appendChild(document.importNode(source.content, true));
      markMatches(div);
    }
    return holder.querySelector('svg');
  }

  // A box beside the plan's picture: in the plan, else in its section.
  function box(div, selector) {
    return div.querySelector(selector) || div.closest('section').querySelector(selector);
  }

  function show(id) {
    var div = planDiv(id);
    var section = div.closest('section');
    // Tabs show one plan at a time; a program's two plans stay side by side.
    if (section.querySelector('.tab'))
      section.querySelectorAll('.plan').forEach(function (p) { p.hidden = p !== div; });
    section.querySelectorAll('.tab').forEach(function (t) {
      t.classList.toggle('active', +t.dataset.plan === +id);
    });
    draw(div);
    return div;
  }

  // What is live at op t, region by region: the heap and each output
  // borrowed in on a line of their own, storages written in place summed.
  function liveAt(plan, t) {
    var perRegion = plan.regions.map(function () { return { bytes: 0, values: [] }; });
    ['b', 'p'].forEach(function (kind) {
      plan[kind].forEach(function (r, i) {
        if (r[4] <= t && t < r[5]) {
          perRegion[r[6]].bytes += r[3];
          perRegion[r[6]].values.push(describe(plan, kind, i));
        }
      });
    });
    var lines = [], sums = { output: [0, 0, 0], state: [0, 0, 0] };
    perRegion.forEach(function (live, r) {
      if (!live.values.length) return;
      var kind = plan.kinds[r];
      if (kind === 'output' || kind === 'state') {
        sums[kind][0] += live.bytes; sums[kind][1] += live.values.length; ++sums[kind][2];
        return;
      }
      live.values.sort(function (a, b) { return b.size - a.size; });
      var named = live.values.slice(0, 3).map(function (v) {
        return v.value + ' ' + v.op + ' (' + v.size + ')';
      });
      var more = live.values.length > 3 ? ', and ' + (live.values.length - 3) + ' more' : '';
      lines.push(plan.regions[r] + ': ' + live.bytes + ' bytes (' + bytes(live.bytes) +
                 ') in ' + live.values.length + ' value' + (live.values.length === 1 ? '' : 's') +
                 ': ' + named.join(', ') + more);
      var state = live.values.filter(function (v) { return v.state; });
      if (state.length)
        lines.push('of which mutable buffers (state): ' + state.length + ', ' +
                   bytes(state.reduce(function (sum, v) { return sum + v.size; }, 0)));
    });
    [['output', 'outputs built in place'], ['state', 'states written in place']].forEach(function (k) {
      var s = sums[k[0]];
      if (s[2]) lines.push(k[1] + ': ' + s[0] + ' bytes (' + bytes(s[0]) + ') in ' + s[1] +
                           ' values of ' + s[2] + ' storages');
    });
    return lines;
  }

  function showLive(div, plan, t, title) {
    var live = box(div, '.live-box');
    if (!live) return;
    live.textContent = '';
    var head = document.createElement('b');
    head.textContent = title;
    var list = document.createElement('ul');
    liveAt(plan, t).forEach(function (line) {
      var item = document.createElement('li');
      item.textContent = line;
      list.appendChild(item);
    });
    live.appendChild(head);
    live.appendChild(list);
  }

  // The op under a point of the picture, from the time axis the SVG names.
  function opAt(svg, event) {
    var point = svg.createSVGPoint();
    point.x = event.clientX; point.y = event.clientY;
    var at = point.matrixTransform(svg.getScreenCTM().inverse());
    var left = +svg.dataset.left, width = +svg.dataset.width, span = +svg.dataset.span;
    if (at.x < left || at.x > left + width) return null;
    return { t: Math.min(span - 1, Math.floor((at.x - left) / width * span)), x: at.x };
  }

  function moveCursor(svg, x) {
    var line = svg.querySelector('line.cursor');
    if (!line) {
      line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
      line.setAttribute('class', 'cursor');
      svg.appendChild(line);
    }
    line.setAttribute('x1', x); line.setAttribute('x2', x);
    line.setAttribute('y1', svg.dataset.top || 80);
    line.setAttribute('y2', svg.dataset.bottom || svg.viewBox.baseVal.height);
  }

  function pin(div, rect) {
    var info = rectInfo(rect);
    if (!info) return;
    var section = div.closest('section');
    section.querySelectorAll('rect.selected').forEach(function (r) { r.classList.remove('selected'); });
    rect.classList.add('selected');
    // A program's arena: the same buffer in its other plan, to compare.
    if (!section.querySelector('.tab') && rect.dataset.b !== undefined)
      section.querySelectorAll('.plan rect[data-b="' + rect.dataset.b + '"]').forEach(function (r) {
        r.classList.add('selected');
      });
    var details = box(div, '.details');
    details.textContent = '';
    var text = info.text || describeText(info);
    text.split('\n').forEach(function (line, i) {
      var p = document.createElement('div');
      if (i === 0) p.className = 'value';
      p.textContent = line;
      details.appendChild(p);
    });
  }

  function showTip(rect, event) {
    var info = rectInfo(rect);
    if (!info) return;
    tip.textContent = info.text || describeText(info);
    tip.hidden = false;
    placeTip(event);
  }

  function placeTip(event) {
    var x = event.clientX + 14, y = event.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth) x = event.clientX - tip.offsetWidth - 8;
    if (y + tip.offsetHeight > window.innerHeight) y = event.clientY - tip.offsetHeight - 8;
    tip.style.left = Math.max(0, x) + 'px';
    tip.style.top = Math.max(0, y) + 'px';
  }

  function hoverable(target) {
    return target instanceof Element && target.matches('.picture rect[data-b], .picture rect[data-p], .picture rect[data-n]')
      ? target : null;
  }

  document.addEventListener('mouseover', function (event) {
    var rect = hoverable(event.target);
    if (rect) showTip(rect, event);
  });
  document.addEventListener('mousemove', function (event) {
    if (!tip.hidden && hoverable(event.target)) placeTip(event);
  });
  document.addEventListener('mouseout', function (event) {
    if (hoverable(event.target)) tip.hidden = true;
  });

  document.addEventListener('click', function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var tab = target.closest('.tab');
    if (tab) { show(tab.dataset.plan); return; }
    var result = target.closest('#results div');
    if (result) { goTo(result.dataset.plan, result.dataset.kind, result.dataset.index); return; }
    var svg = target.closest('.picture svg');
    if (!svg) return;
    var div = svg.closest('.plan');
    var rect = hoverable(target);
    if (rect) { pin(div, rect); return; }
    var at = opAt(svg, event);
    if (!at) return;
    moveCursor(svg, at.x);
    var plan = data.plans[+div.dataset.plan];
    var step = plan.steps && at.t < plan.steps.length ? ': ' + data.ops[plan.steps[at.t]] : '';
    showLive(div, plan, at.t, 'live at ' + unit + ' ' + at.t + step +
             (plan.label ? ' (' + plan.label + ')' : ''));
  });

  // Search: values and ops whose name holds the query, in every plan.
  var search = document.getElementById('search');
  var results = document.getElementById('results');
  var query = '';

  function matches(d) {
    return query && (d.value.toLowerCase().indexOf(query) >= 0 ||
                     d.op.toLowerCase().indexOf(query) >= 0);
  }

  function markMatches(div) {
    var svg = div.querySelector('.picture svg');
    if (!svg) return;
    var plan = data.plans[+div.dataset.plan];
    svg.classList.toggle('searching', !!query);
    svg.querySelectorAll('rect[data-b], rect[data-p]').forEach(function (rect) {
      var d = rect.dataset.b !== undefined ? describe(plan, 'b', +rect.dataset.b)
                                           : describe(plan, 'p', +rect.dataset.p);
      rect.classList.toggle('match', matches(d));
    });
  }

  function find(text) {
    query = text.trim().toLowerCase();
    var found = [];
    if (query) {
      data.plans.forEach(function (plan, id) {
        ['b', 'p'].forEach(function (kind) {
          plan[kind].forEach(function (r, i) {
            var d = describe(plan, kind, i);
            if (found.length < maxResults && matches(d))
              found.push({ plan: id, kind: kind, index: i, d: d });
          });
        });
      });
    }
    results.textContent = '';
    found.forEach(function (f) {
      var row = document.createElement('div');
      var plan = data.plans[f.plan];
      row.dataset.plan = f.plan; row.dataset.kind = f.kind; row.dataset.index = f.index;
      var which = plan.s !== undefined ? ' S=' + plan.s : ' ' + plan.label;
      row.textContent = '@' + plan.entry + which + '  ' + f.d.value + '  ' + f.d.op +
        '  ' + f.d.region + '  ' + bytes(f.d.size) + '  live [' + f.d.start + ', ' + f.d.end + ')';
      results.appendChild(row);
    });
    document.querySelectorAll('.plan').forEach(markMatches);
    return found;
  }

  function goTo(id, kind, index) {
    var div = show(id);
    var rect = div.querySelector('.picture rect[data-' + kind + '="' + index + '"]');
    results.textContent = '';
    if (!rect) return null;
    pin(div, rect);
    rect.scrollIntoView({ block: 'center', inline: 'nearest' });
    return rect;
  }

  search.addEventListener('input', function () { find(search.value); });
  search.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') { search.value = ''; find(''); }
    if (event.key === 'Enter' && results.firstChild) results.firstChild.click();
  });

  // The tab shown first in each section (the largest S) is drawn now.
  document.querySelectorAll('.plan:not([hidden])').forEach(draw);
  window.coreaiPage = { data: data, show: show, draw: draw, find: find, goTo: goTo, liveAt: liveAt };
})();

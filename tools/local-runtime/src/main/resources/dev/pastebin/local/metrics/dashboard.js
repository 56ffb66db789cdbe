// The local metrics dashboard: polls /_local/metrics (the runtime's time series of the functions' Embedded
// Metric Format lines) and draws one SVG chart and one table of figures per panel of /_local/dashboard.json.
// Every figure is also in the DOM as data-value (the raw number), so a test can compare it with the metric lines.
'use strict';

const POLL_MS = 5000;
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const SVG_NS = 'http://www.w3.org/2000/svg';
// ?minutes=N narrows charts and figures to the last N minutes of the runtime's window.
const SPAN_MINUTES = Number(new URLSearchParams(window.location.search).get('minutes')) || null;

// The application's panels, from /_local/dashboard.json (the runtime's --dashboard file; none without it).
// The runtime knows no metric names: metrics that no panel names still appear in the "All metrics" table.
let PANELS = null;

// ---- selecting series ---------------------------------------------------------------------------------

const dimensionKeys = (s) => Object.keys(s.dimensions).sort().join(',');

// The series of a metric in one dimension set: the smallest set that has every dimension the caller needs.
// A line emitted with several dimension sets is in each of them; summing across sets would count it twice.
// A where value is a list of dimension values, any of which matches.
function select(data, ref, needed, where) {
  const candidates = data.series.filter((s) => s.namespace === ref.namespace && s.name === ref.metric
    && needed.every((k) => k in s.dimensions));
  if (candidates.length === 0) return [];
  const best = candidates.map(dimensionKeys).sort((a, b) =>
    (a === '' ? 0 : a.split(',').length) - (b === '' ? 0 : b.split(',').length) || a.localeCompare(b))[0];
  return candidates.filter((s) => dimensionKeys(s) === best
    && Object.entries(where || {}).every(([k, v]) => [].concat(v).includes(s.dimensions[k])));
}

// Merges the buckets of several series: t -> {count, sum, values}.
function merge(series) {
  const byT = new Map();
  for (const s of series) {
    for (const p of s.points) {
      const m = byT.get(p.t) || { t: p.t, count: 0, sum: 0, values: [] };
      m.count += p.count;
      m.sum += p.sum;
      m.values.push(...p.values);
      byT.set(p.t, m);
    }
  }
  return [...byT.values()].sort((a, b) => a.t - b.t);
}

function total(buckets) {
  const all = { count: 0, sum: 0, values: [] };
  for (const b of buckets) {
    all.count += b.count;
    all.sum += b.sum;
    for (const v of b.values) all.values.push(v);
  }
  return all;
}

// Nearest-rank percentile of the values (the runtime keeps a uniform sample of a busy bucket's values).
function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p / 100 * sorted.length) - 1)];
}

// ---- panels: each returns {lines: [{label, points: [[t, y]]}], figures: [{key, label, value, format}],
//      bars?: [{label, value}]}, or null when there is no data --------------------------------------------

function whereKeys(spec) { return Object.keys(spec.where || {}); }

// A counts line's label: {value} is the groupBy dimension's value, {value:N} its first N characters.
function lineLabel(template, value) {
  return template.replace(/\{value(?::(\d+))?\}/g, (_, n) => (n ? String(value).slice(0, Number(n)) : String(value)));
}

const PANEL_KINDS = {
  ratio(data, panel) {
    const den = merge(select(data, panel.denominator, whereKeys(panel.denominator), panel.denominator.where));
    if (den.length === 0) return null;
    const num = new Map(merge(select(data, panel.numerator, whereKeys(panel.numerator),
      panel.numerator.where)).map((b) => [b.t, b.sum]));
    const points = den.filter((b) => b.sum > 0).map((b) => [b.t, (num.get(b.t) || 0) / b.sum]);
    const numerator = [...num.values()].reduce((a, b) => a + b, 0);
    const denominator = total(den).sum;
    return {
      format: 'percent',
      lines: [{ label: 'rate', points }],
      figures: [{ key: 'rate', label: 'rate over the window', value: denominator > 0 ? numerator / denominator : 0,
                  format: 'percent' },
                { key: 'numerator', label: panel.numerator.metric + ' ' + JSON.stringify(panel.numerator.where || {}),
                  value: numerator },
                { key: 'denominator', label: panel.denominator.metric + ' (all)', value: denominator }],
    };
  },

  mean(data, panel) {
    const buckets = merge(select(data, panel, []));
    if (buckets.length === 0) return null;
    const all = total(buckets);
    return {
      lines: [{ label: 'mean', points: buckets.map((b) => [b.t, b.sum / b.count]) }],
      figures: [{ key: 'mean', label: 'mean over the window', value: all.sum / all.count },
                { key: 'count', label: 'datapoints', value: all.count }],
    };
  },

  distribution(data, panel) {
    const all = total(merge(select(data, panel, [])));
    if (all.values.length === 0) return null;
    const counts = new Map();
    all.values.forEach((v) => counts.set(v, (counts.get(v) || 0) + 1));
    const keys = [...counts.keys()].sort((a, b) => a - b);
    return {
      bars: keys.map((k) => ({ label: String(k), value: counts.get(k) })),
      figures: keys.flatMap((k) => [
        { key: 'share.' + k, label: 'share at ' + k, value: counts.get(k) / all.values.length, format: 'percent' },
        { key: 'count.' + k, label: 'count at ' + k, value: counts.get(k) }]),
    };
  },

  percentiles(data, panel) {
    const buckets = merge(select(data, panel, [])).filter((b) => b.values.length > 0);
    if (buckets.length === 0) return null;
    const all = total(buckets);
    return {
      lines: panel.percentiles.map((p) => ({ label: 'p' + p,
        points: buckets.map((b) => [b.t, percentile(b.values, p)]) })),
      figures: panel.percentiles.map((p) => ({ key: 'p' + p, label: 'p' + p + ' over the window',
        value: percentile(all.values, p) })).concat([{ key: 'count', label: 'datapoints', value: all.count }]),
    };
  },

  counts(data, panel) {
    const groups = new Map();
    for (const line of panel.lines) {
      for (const s of select(data, line, line.groupBy ? [line.groupBy] : [])) {
        const label = lineLabel(line.label, line.groupBy ? s.dimensions[line.groupBy] : null);
        groups.set(label, (groups.get(label) || []).concat([s]));
      }
    }
    if (groups.size === 0) return null;
    const labels = [...groups.keys()];
    const merged = labels.map((label) => merge(groups.get(label)));
    return {
      lines: labels.map((label, i) => ({ label, points: merged[i].map((b) => [b.t, b.sum]) })),
      figures: labels.map((label, i) => ({ key: label, label: label + ' (sum)', value: total(merged[i]).sum })),
    };
  },
};

// ---- drawing --------------------------------------------------------------------------------------------

function el(name, attributes, text) {
  const e = document.createElement(name);
  Object.entries(attributes || {}).forEach(([k, v]) => e.setAttribute(k, v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function svgEl(name, attributes, text) {
  const e = document.createElementNS(SVG_NS, name);
  Object.entries(attributes || {}).forEach(([k, v]) => e.setAttribute(k, v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function formatted(value, format) {
  if (value === null || value === undefined) return '–';
  if (format === 'percent') return (value * 100).toFixed(1) + ' %';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

const W = 420, H = 150, LEFT = 40, RIGHT = 8, TOP = 8, BOTTOM = 18;

function yScale(max) {
  const top = max > 0 ? max : 1;
  return (y) => TOP + (H - TOP - BOTTOM) * (1 - y / top);
}

function axes(svg, max, xLabels, format) {
  const y = yScale(max);
  svg.append(svgEl('line', { x1: LEFT, y1: H - BOTTOM, x2: W - RIGHT, y2: H - BOTTOM, stroke: '#9aa5b1' }));
  svg.append(svgEl('line', { x1: LEFT, y1: TOP, x2: LEFT, y2: H - BOTTOM, stroke: '#9aa5b1' }));
  svg.append(svgEl('line', { x1: LEFT, y1: TOP, x2: W - RIGHT, y2: TOP, stroke: '#eef0f3' }));
  svg.append(svgEl('text', { x: LEFT - 4, y: y(max > 0 ? max : 1) + 4, 'text-anchor': 'end' },
    formatted(max > 0 ? max : 1, format)));
  svg.append(svgEl('text', { x: LEFT - 4, y: H - BOTTOM + 4, 'text-anchor': 'end' }, '0'));
  xLabels.forEach(([x, label, anchor]) => svg.append(svgEl('text', { x, y: H - 4, 'text-anchor': anchor }, label)));
}

function lineChart(id, lines, data, format) {
  const svg = svgEl('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, 'data-chart': id, role: 'img' });
  const end = data.now, start = end - data.windowSeconds * 1000;
  const x = (t) => LEFT + (W - LEFT - RIGHT) * (t - start) / (end - start);
  const max = Math.max(0, ...lines.flatMap((l) => l.points.map((p) => p[1])));
  const y = yScale(max);
  const minutes = data.windowSeconds / 60;
  const ticks = [0, 1, 2, 3].map((i) => [LEFT + (W - LEFT - RIGHT) * i / 3,
    i === 3 ? 'now' : '-' + Math.round(minutes * (3 - i) / 3) + ' min',
    ['start', 'middle', 'middle', 'end'][i]]);
  axes(svg, max, ticks, format);
  lines.forEach((line, i) => {
    const color = COLORS[i % COLORS.length];
    const points = line.points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    const g = svgEl('g', { 'data-line': line.label, 'data-points': JSON.stringify(line.points) });
    g.append(svgEl('polyline', { points, fill: 'none', stroke: color, 'stroke-width': 1.5 }));
    // A dot per bucket: a lone bucket would otherwise draw nothing.
    line.points.forEach(([t, v]) => g.append(svgEl('circle', { cx: x(t).toFixed(1), cy: y(v).toFixed(1), r: 2,
      fill: color })));
    svg.append(g);
  });
  return svg;
}

function barChart(id, bars) {
  const svg = svgEl('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, 'data-chart': id, role: 'img' });
  const max = Math.max(0, ...bars.map((b) => b.value));
  const y = yScale(max);
  const slot = (W - LEFT - RIGHT) / bars.length;
  axes(svg, max, bars.map((b, i) => [LEFT + slot * (i + 0.5), b.label, 'middle']));
  bars.forEach((b, i) => {
    svg.append(svgEl('rect', { x: (LEFT + slot * i + slot * 0.15).toFixed(1), y: y(b.value).toFixed(1),
      width: (slot * 0.7).toFixed(1), height: (H - BOTTOM - y(b.value)).toFixed(1), fill: COLORS[0],
      'data-bar': b.label, 'data-value': b.value }));
  });
  return svg;
}

function legend(lines) {
  const div = el('div', { class: 'legend' });
  lines.forEach((line, i) => {
    const item = el('span');
    item.append(el('span', { class: 'swatch c' + (i % COLORS.length) }), document.createTextNode(line.label));
    div.append(item);
  });
  return div;
}

function figuresTable(id, figures) {
  const table = el('table', { class: 'figures' });
  figures.forEach((f) => {
    const tr = el('tr', { 'data-figure': id + '.' + f.key });
    tr.append(el('th', {}, f.label));
    tr.append(el('td', { class: 'num', 'data-value': f.value === null ? '' : String(f.value) },
      formatted(f.value, f.format)));
    table.append(tr);
  });
  return table;
}

function renderPanel(container, panel, data) {
  const section = el('section', { class: 'panel', id: 'panel-' + panel.id, 'data-panel': panel.id });
  section.append(el('h2', {}, panel.title), el('p', { class: 'note' }, panel.note));
  const view = PANEL_KINDS[panel.kind](data, panel);
  if (view === null) {
    section.setAttribute('data-state', 'empty');
    section.append(el('p', { class: 'empty' }, 'No data in the last ' + Math.round(data.windowSeconds / 60)
      + ' minutes.'));
  } else {
    section.setAttribute('data-state', 'data');
    if (view.bars) {
      section.append(barChart(panel.id, view.bars));
    } else {
      section.append(lineChart(panel.id, view.lines, data, view.format), legend(view.lines));
    }
    section.append(figuresTable(panel.id, view.figures));
  }
  container.append(section);
}

function renderAllMetrics(data) {
  const section = document.getElementById('all-metrics');
  const body = section.querySelector('.body');
  body.replaceChildren();
  if (data.series.length === 0) {
    section.setAttribute('data-state', 'empty');
    body.append(el('p', { class: 'empty' }, 'No metric lines yet: nothing a function printed was in Embedded '
      + 'Metric Format (a JSON object with _aws.CloudWatchMetrics).'));
    return;
  }
  section.setAttribute('data-state', 'data');
  const table = el('table');
  const head = el('tr');
  ['namespace', 'metric', 'dimensions', 'unit', 'count', 'sum', 'min', 'max', 'avg', 'p50', 'p99']
    .forEach((h) => head.append(el('th', {}, h)));
  table.append(head);
  for (const s of data.series) {
    const all = total(s.points);
    const row = el('tr', { 'data-metric': s.name, 'data-dimensions': JSON.stringify(s.dimensions) });
    const dims = Object.entries(s.dimensions).map(([k, v]) => k + '=' + v).join(', ');
    [s.namespace, s.name, dims, s.unit].forEach((v) => row.append(el('td', {}, v)));
    const stats = { count: all.count, sum: all.sum,
      min: Math.min(...s.points.map((p) => p.min)), max: Math.max(...s.points.map((p) => p.max)),
      avg: all.sum / all.count, p50: percentile(all.values, 50), p99: percentile(all.values, 99) };
    Object.entries(stats).forEach(([k, v]) => row.append(el('td', { class: 'num', 'data-col': k,
      'data-value': String(v) }, formatted(v))));
    table.append(row);
  }
  body.append(table);
}

// The data of the last SPAN_MINUTES only, as if the runtime's window were that short.
function narrowed(data) {
  if (SPAN_MINUTES === null || SPAN_MINUTES * 60 >= data.windowSeconds) return data;
  const start = data.now - SPAN_MINUTES * 60000 - data.bucketSeconds * 1000;
  const series = data.series.map((s) => ({ ...s, points: s.points.filter((p) => p.t > start) }))
    .filter((s) => s.points.length > 0);
  return { ...data, windowSeconds: SPAN_MINUTES * 60, series };
}

function render(all) {
  const data = narrowed(all);
  const container = document.getElementById('panels');
  container.replaceChildren();
  PANELS.forEach((panel) => renderPanel(container, panel, data));
  renderAllMetrics(data);
  const status = document.getElementById('status');
  status.setAttribute('data-state', 'ok');
  status.textContent = `Updated ${new Date(data.now).toLocaleTimeString()}: ${data.series.length} series, `
    + `${data.bucketSeconds} s buckets over the last ${Math.round(data.windowSeconds / 60)} minutes`
    + (data.droppedDatapoints > 0 ? `; ${data.droppedDatapoints} datapoints dropped (more than the series limit)` : '')
    + `. Refreshes every ${POLL_MS / 1000} s; ?minutes=N shows the last N minutes.`;
}

async function poll() {
  try {
    if (PANELS === null) {
      const panels = await fetch('/_local/dashboard.json', { cache: 'no-store' });
      if (!panels.ok) throw new Error('HTTP ' + panels.status + ' for /_local/dashboard.json');
      PANELS = (await panels.json()).panels;
    }
    const response = await fetch('/_local/metrics', { cache: 'no-store' });
    if (!response.ok) throw new Error('HTTP ' + response.status);
    render(await response.json());
  } catch (e) {
    const status = document.getElementById('status');
    status.setAttribute('data-state', 'error');
    status.textContent = 'Cannot read /_local/metrics (' + e.message + '); is the local runtime running?';
  }
  setTimeout(poll, POLL_MS);
}

poll();

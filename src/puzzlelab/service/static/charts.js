// Small SVG charts for the records dashboards, drawn here (no charting library, no
// network): a scatter plot over n, a heat map over a grid, and bars on a log scale.
// Every plotted value is an element of class "mark" (with a data-kind naming what it
// shows) wrapped in a link to the instance or its verified answer, and has a <title>
// for its tooltip. The tests count the marks.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function linked(href, child, title) {
  const a = svgEl("a", { href });
  if (title) child.append(svgEl("title", {}, title));
  a.append(child);
  return a;
}

// Nice round tick values covering [lo, hi].
function ticks(lo, hi, count = 6) {
  if (hi <= lo) return [lo];
  const raw = (hi - lo) / count;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

// A colour from pale yellow through green and blue to dark purple, t in [0, 1]
// (a few stops of the viridis scale, read in reverse so that small values are light).
const SCALE = ["#fde725", "#90d743", "#35b779", "#21918c", "#31688e", "#443983", "#440154"];
function blend(t) {
  const x = Math.max(0, Math.min(1, t)) * (SCALE.length - 1);
  const i = Math.min(SCALE.length - 2, Math.floor(x));
  const f = x - i;
  const a = SCALE[i].match(/\w\w/g).map((h) => parseInt(h, 16));
  const b = SCALE[i + 1].match(/\w\w/g).map((h) => parseInt(h, 16));
  return "#" + a.map((c, k) => Math.round(c + (b[k] - c) * f).toString(16).padStart(2, "0")).join("");
}
const SCALE_STEPS = 128;
const SCALE_TABLE = Array.from({ length: SCALE_STEPS + 1 }, (_, i) => blend(i / SCALE_STEPS));
function scaleColour(t) { return SCALE_TABLE[Math.round(Math.max(0, Math.min(1, t)) * SCALE_STEPS)]; }

// Text for SVG markup built as a string (attribute values and titles).
function esc(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function frame(width, height, label) {
  const svg = svgEl("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart" });
  svg.append(svgEl("title", {}, label));
  return svg;
}

function axes(svg, box, xs, ys, xLabel, yLabel, fx, fy) {
  const g = svgEl("g", { class: "axes" });
  g.append(svgEl("line", { x1: box.left, y1: box.bottom, x2: box.right, y2: box.bottom, stroke: "#888" }));
  g.append(svgEl("line", { x1: box.left, y1: box.top, x2: box.left, y2: box.bottom, stroke: "#888" }));
  for (const v of xs) {
    g.append(svgEl("line", { x1: fx(v), y1: box.bottom, x2: fx(v), y2: box.bottom + 4, stroke: "#888" }));
    g.append(svgEl("text", { x: fx(v), y: box.bottom + 16, "text-anchor": "middle", "font-size": 11 }, String(v)));
  }
  for (const v of ys) {
    g.append(svgEl("line", { x1: box.left, y1: fy(v), x2: box.right, y2: fy(v), stroke: "#eee" }));
    g.append(svgEl("text", { x: box.left - 6, y: fy(v) + 4, "text-anchor": "end", "font-size": 11 }, String(v)));
  }
  g.append(svgEl("text", { x: (box.left + box.right) / 2, y: box.bottom + 32, "text-anchor": "middle", "font-size": 12 }, xLabel));
  g.append(svgEl("text", { x: 14, y: (box.top + box.bottom) / 2, "text-anchor": "middle", "font-size": 12,
                           transform: `rotate(-90 14 ${(box.top + box.bottom) / 2})` }, yLabel));
  svg.append(g);
}

function legend(svg, x, y, items) {
  const g = svgEl("g", { class: "legend" });
  items.forEach((item, i) => {
    const cy = y + i * 16;
    g.append(marker(item.shape, x + 6, cy, item.colour, item.filled !== false));
    g.append(svgEl("text", { x: x + 16, y: cy + 4, "font-size": 11 }, item.label));
  });
  svg.append(g);
}

function marker(shape, x, y, colour, filled, size = 1) {
  if (shape === "star") {
    const points = Array.from({ length: 10 }, (_, i) => {
      const r = i % 2 ? 2.6 : 6.5, a = -Math.PI / 2 + (i * Math.PI) / 5;
      return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
    });
    return svgEl("polygon", { points: points.join(" "), fill: colour, stroke: colour, "stroke-width": 1 });
  }
  if (shape === "cross") {
    const h = 4 * size;
    return svgEl("path", { d: `M${x - h},${y - h}L${x + h},${y + h}M${x - h},${y + h}L${x + h},${y - h}`, stroke: colour, "stroke-width": 2 });
  }
  const r = 3.5 * size;
  if (shape === "square") {
    return svgEl("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: filled ? colour : "#fff", stroke: colour, "stroke-width": 1.5 * size });
  }
  return svgEl("circle", { cx: x, cy: y, r, fill: filled ? colour : "#fff", stroke: colour, "stroke-width": 1.5 });
}

// series: [{name, kind, shape, colour, points: [{x, y, href, title, filled}], line}]
// bands: [{from, to, label, lower}] shaded ranges of x (a lower band is drawn in the
// lower half, so two can overlap); a point's `label` is written beside it; `caption`
// is a line of small text under the plot.
function scatterPlot({ width = 560, height = 300, title, xLabel, yLabel, series, bands = [], caption = "" }) {
  const box = { left: 56, right: width - 150, top: 16, bottom: height - (caption ? 58 : 44) };
  const all = series.flatMap((s) => s.points);
  const xMin = Math.min(...all.map((p) => p.x)), xMax = Math.max(...all.map((p) => p.x));
  const yMin = Math.min(0, ...all.map((p) => p.y)), yMax = Math.max(...all.map((p) => p.y));
  const fx = (v) => box.left + (xMax === xMin ? 0.5 : (v - xMin) / (xMax - xMin)) * (box.right - box.left);
  const fy = (v) => box.bottom - (yMax === yMin ? 0.5 : (v - yMin) / (yMax - yMin)) * (box.bottom - box.top);
  const svg = frame(width, height, title);
  for (const band of bands) {
    const x0 = fx(band.from) - 3, x1 = fx(band.to) + 3;
    const mid = (box.top + box.bottom) / 2;
    const [y0, y1] = band.lower ? [mid, box.bottom] : [box.top, band === bands[0] && bands.some((b) => b.lower) ? mid : box.bottom];
    svg.append(svgEl("rect", { x: x0, y: y0, width: Math.max(1, x1 - x0), height: y1 - y0, fill: band.lower ? "#e7eef8" : "#e8f3ea", class: "band" }));
    svg.append(svgEl("text", { x: (x0 + x1) / 2, y: band.lower ? box.bottom - 6 : box.top + 12, "text-anchor": "middle", "font-size": 11,
                               fill: band.lower ? "#2f5aa8" : "#1b7a3a" }, band.label));
  }
  if (caption) svg.append(svgEl("text", { x: box.left, y: height - 6, "font-size": 10, fill: "#5b6475", class: "caption" }, caption));
  axes(svg, box, ticks(xMin, xMax), ticks(yMin, yMax, 5), xLabel, yLabel, fx, fy);
  for (const s of series) {
    const g = svgEl("g", { class: `series series-${s.kind}` });
    if (s.line && s.points.length > 1) {
      const d = s.points.map((p, i) => `${i ? "L" : "M"}${fx(p.x).toFixed(1)},${fy(p.y).toFixed(1)}`).join("");
      g.append(svgEl("path", { d, fill: "none", stroke: s.colour, "stroke-width": 1, "stroke-dasharray": s.dash || "4 3" }));
    }
    for (const p of s.points) {
      const m = marker(s.shape, fx(p.x), fy(p.y), s.colour, p.filled !== false, s.small ? 0.55 : 1);
      m.setAttribute("class", "mark");
      m.dataset.kind = s.kind;
      m.dataset.x = p.x;
      m.dataset.y = p.y;
      g.append(p.href ? linked(p.href, m, p.title) : m);
      if (p.label) {
        g.append(svgEl("text", { x: fx(p.x) - 8, y: fy(p.y) + 4, "text-anchor": "end", "font-size": 11, "font-weight": 600, fill: s.colour, class: "point-label" }, p.label));
      }
    }
    svg.append(g);
  }
  legend(svg, box.right + 14, box.top + 6, series.map((s) => ({ label: s.name, shape: s.shape, colour: s.colour, filled: s.legendFilled })));
  return svg;
}

// cells: [{row, col, value, href, title, kind, opacity, outline}], rows x cols grid.
function heatMap({ rows, cols, cell = 12, title, rowLabels, colLabels, cells, min, max, legendLabel, labelEvery = 1 }) {
  const left = 34, top = 22;
  const width = left + cols * cell + 90, height = top + rows * cell + 30;
  const svg = frame(width, height, title);
  colLabels.forEach((label, c) => {
    if (c % labelEvery === 0 || c === cols - 1) {
      svg.append(svgEl("text", { x: left + (c + 0.5) * cell, y: top - 6, "text-anchor": "middle", "font-size": Math.min(10, cell) }, label));
    }
  });
  rowLabels.forEach((label, r) => svg.append(svgEl("text", { x: left - 4, y: top + (r + 0.75) * cell, "text-anchor": "end", "font-size": Math.min(10, cell) }, label)));
  // Thousands of cells (2 x 1,332 for the coin fonts): one string of markup, parsed once.
  const markup = cells.map((c) => {
    const t = max === min ? 0.5 : (c.value - min) / (max - min);
    const fill = c.value === null ? "#e6e6e6" : scaleColour(t);
    const outline = c.outline ? ` stroke="${esc(c.outline)}" stroke-width="1.5"` : "";
    const opacity = c.opacity === undefined ? "" : ` fill-opacity="${c.opacity}"`;
    const value = c.value === null ? "" : ` data-value="${c.value}"`;
    const rect = `<rect class="mark" x="${left + c.col * cell + 0.5}" y="${top + c.row * cell + 0.5}" width="${cell - 1}" height="${cell - 1}"` +
      ` fill="${fill}"${opacity}${outline} data-kind="${esc(c.kind)}" data-row="${c.row}" data-col="${c.col}"${value}><title>${esc(c.title || "")}</title></rect>`;
    return c.href ? `<a href="${esc(c.href)}">${rect}</a>` : rect;
  });
  const g = svgEl("g", { class: "cells" });
  g.innerHTML = markup.join("");
  svg.append(g);
  const lx = left + cols * cell + 16;
  for (let i = 0; i <= 10; i++) {
    svg.append(svgEl("rect", { x: lx, y: top + i * 12, width: 14, height: 12, fill: scaleColour(i / 10) }));
  }
  svg.append(svgEl("text", { x: lx + 18, y: top + 10, "font-size": 10 }, String(min)));
  svg.append(svgEl("text", { x: lx + 18, y: top + 130, "font-size": 10 }, String(max)));
  svg.append(svgEl("text", { x: lx, y: top + 150, "font-size": 10 }, legendLabel));
  return svg;
}

// groups: [{label, bars: [{kind, value, href, title, colour, filled}]}], log-scaled.
function barChart({ width = 560, height = 260, title, yLabel, groups }) {
  const box = { left: 64, right: width - 20, top: 16, bottom: height - 56 };
  const values = groups.flatMap((g) => g.bars.map((b) => b.value)).filter((v) => v > 0);
  const top = Math.max(10, ...values);
  const decades = Math.ceil(Math.log10(top));
  const fy = (v) => box.bottom - (Math.log10(Math.max(1, v)) / decades) * (box.bottom - box.top);
  const svg = frame(width, height, title);
  const slot = (box.right - box.left) / Math.max(1, groups.length);
  for (let d = 0; d <= decades; d++) {
    svg.append(svgEl("line", { x1: box.left, y1: fy(10 ** d), x2: box.right, y2: fy(10 ** d), stroke: "#eee" }));
    svg.append(svgEl("text", { x: box.left - 6, y: fy(10 ** d) + 4, "text-anchor": "end", "font-size": 11 }, `1e${d}`));
  }
  svg.append(svgEl("text", { x: 14, y: (box.top + box.bottom) / 2, "text-anchor": "middle", "font-size": 12,
                             transform: `rotate(-90 14 ${(box.top + box.bottom) / 2})` }, yLabel));
  groups.forEach((group, i) => {
    const x0 = box.left + i * slot;
    const w = Math.min(22, (slot - 8) / Math.max(1, group.bars.length));
    group.bars.forEach((b, k) => {
      const y = fy(b.value);
      const rect = svgEl("rect", { x: x0 + 4 + k * w, y, width: w - 2, height: Math.max(1, box.bottom - y),
                                   fill: b.filled ? b.colour : "#fff", stroke: b.colour, "stroke-width": 1.5, class: "mark" });
      rect.dataset.kind = b.kind;
      rect.dataset.value = b.value;
      svg.append(b.href ? linked(b.href, rect, b.title) : rect);
    });
    svg.append(svgEl("text", { x: x0 + slot / 2, y: box.bottom + 14, "text-anchor": "middle", "font-size": 10,
                               transform: `rotate(20 ${x0 + slot / 2} ${box.bottom + 14})` }, group.label));
  });
  svg.append(svgEl("line", { x1: box.left, y1: box.bottom, x2: box.right, y2: box.bottom, stroke: "#888" }));
  return svg;
}

// bins: [{x, bars: [{kind, value, colour, title}]}] on a linear scale (a histogram of
// whole-number x: each bin's bars side by side); a legend names the kinds.
function histogram({ width = 420, height = 240, title, xLabel, yLabel, bins }) {
  const box = { left: 52, right: width - 12, top: 36, bottom: height - 42 };
  const xs = bins.map((b) => b.x);
  const xMin = Math.min(...xs), xMax = Math.max(...xs);
  const yMax = Math.max(1, ...bins.flatMap((b) => b.bars.map((bar) => bar.value)));
  const slot = (box.right - box.left) / Math.max(1, xMax - xMin + 1);
  const fx = (v) => box.left + (v - xMin + 0.5) * slot;
  const fy = (v) => box.bottom - (v / yMax) * (box.bottom - box.top);
  const svg = frame(width, height, title);
  svg.append(svgEl("text", { x: box.left, y: 12, "font-size": 12, "font-weight": 600 }, title));
  axes(svg, box, ticks(xMin, xMax, Math.min(8, xMax - xMin || 1)).filter(Number.isInteger), ticks(0, yMax, 4), xLabel, yLabel, fx, fy);
  const kinds = [];
  for (const bin of bins) {
    const w = Math.max(1, (slot - 2) / bin.bars.length);
    bin.bars.forEach((bar, k) => {
      if (!kinds.some((x) => x.kind === bar.kind)) kinds.push(bar);
      if (!bar.value) return;
      const rect = svgEl("rect", { x: fx(bin.x) - slot / 2 + 1 + k * w, y: fy(bar.value), width: Math.max(0.5, w - 0.5),
                                   height: box.bottom - fy(bar.value), fill: bar.colour, class: "mark" });
      rect.dataset.kind = bar.kind;
      rect.dataset.value = bar.value;
      rect.dataset.x = bin.x;
      rect.append(svgEl("title", {}, bar.title || `${bin.x}: ${bar.value}`));
      svg.append(rect);
    });
  }
  kinds.forEach((bar, i) => {
    const x = box.right - 150 + i * 75;
    svg.append(svgEl("rect", { x, y: 18, width: 9, height: 9, fill: bar.colour }));
    svg.append(svgEl("text", { x: x + 13, y: 26, "font-size": 11 }, bar.kind));
  });
  return svg;
}

// Small multiples of a job's progress (GET /api/jobs/{id}/progress): one line chart
// per figure over the seconds since the job started, the phases named along the
// bottom where they change. Each line is a "mark" with data-points = its points.
function progressCharts(points, { width = 300, height = 140, most = 6 } = {}) {
  const names = [];
  for (const p of points) for (const name of Object.keys(p.figures)) if (!names.includes(name)) names.push(name);
  const tMax = Math.max(1e-3, ...points.map((p) => p.t));
  const changes = points.filter((p, i) => i === 0 || p.phase !== points[i - 1].phase);
  return names.slice(0, most).map((name) => {
    const mine = points.filter((p) => p.figures[name] !== undefined);
    const values = mine.map((p) => p.figures[name]);
    const lo = Math.min(...values), hi = Math.max(...values);
    const box = { left: 52, right: width - 8, top: 18, bottom: height - 38 };
    const fx = (t) => box.left + (t / tMax) * (box.right - box.left);
    const fy = (v) => box.bottom - (hi === lo ? 0.5 : (v - lo) / (hi - lo)) * (box.bottom - box.top);
    const svg = frame(width, height, `${name} over time`);
    svg.append(svgEl("text", { x: box.left, y: 12, "font-size": 12, "font-weight": 600 }, name));
    axes(svg, box, ticks(0, tMax, 4), ticks(lo, hi, 3), "seconds", "", fx, fy);
    for (const c of changes.slice(0, 12)) {
      svg.append(svgEl("line", { x1: fx(c.t), y1: box.top, x2: fx(c.t), y2: box.bottom, stroke: "#ddd", "stroke-dasharray": "2 2" }));
    }
    const d = mine.map((p, i) => `${i ? "L" : "M"}${fx(p.t).toFixed(1)},${fy(p.figures[name]).toFixed(1)}`).join("");
    const line = svgEl("path", { d, fill: "none", stroke: COLOURS_LINE, "stroke-width": 1.6, class: "mark line" });
    line.dataset.figure = name;
    line.dataset.points = mine.length;
    line.append(svgEl("title", {}, `${name}: ${values[values.length - 1]} at ${mine[mine.length - 1].t.toFixed(1)} s`));
    svg.append(line);
    return svg;
  });
}
const COLOURS_LINE = "#4477aa";

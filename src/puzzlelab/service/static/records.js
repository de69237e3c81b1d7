// The Records view: one dashboard per puzzle (GET /api/records/{puzzle}/dashboard):
// what beats or ties the published figures first, then the tables, then the plots.
// "ours" is what the package ships (computed by this project, checked again by the
// puzzle's checker) or this machine's store (marked local); a shipped row that fails
// its check is shown as failed with the reason, never as ours. Every check badge has
// a "how" button that shows how the result was computed in the provenance panel.
"use strict";

const DASHBOARD_NAMES = ["matchsticks", "hexagon", "coins", "tiling", "macmahon"];
const COLOURS = { published: "#4477aa", bound: "#4477aa", ours: "#ee6677", level: "#999933", gap: "#228833", record: "#cc3311", local: "#aa3377" };
const CHECK_MARKS = { verified: "✓", failed: "✗ failed", recorded: "recorded" };
const VERSUS_WORDS = { beats: "beats", ties: "ties", trails: "trails", differs: "differs", new: "new" };

function solveLink(puzzle, instance) { return `#solve/${puzzle}/${encodeURIComponent(instance)}`; }
function answerLink(puzzle, instance) { return `#answer/${puzzle}/${encodeURIComponent(instance)}`; }
function figureLink(puzzle, row) {
  return row.ours ? answerLink(puzzle, row.ours.instance) : solveLink(puzzle, row.instance);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined).map((c) => (c instanceof Node ? c : String(c))));
  return node;
}

function link(href, text) { return el("a", { href }, text); }
function fmt(v) { return v === null || v === undefined ? "—" : typeof v === "number" ? v.toLocaleString("en") : String(v); }

// A table: columns [{head, cell: row -> Node|text, cls}], rows.
function table(columns, rows, cls = "") {
  return el("table", { class: `dash-table ${cls}` },
    el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", { class: c.cls || "" }, c.head)))),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, ...columns.map((c) => el("td", { class: c.cls || "" }, c.cell(r)))))));
}

function tag(text, kind) { return el("span", { class: `tag tag-${kind}` }, text); }

// ours: the value, a check mark where proven, and where it comes from (shipped or local).
function oursCell(puzzle, row) {
  if (!row.ours) {
    const recorded = (row.shipped || []).find((s) => s.check === "recorded" && s.kind !== "proof");
    return recorded ? el("span", { class: "ours recorded", title: "ours, a recorded figure the checker cannot check in full" },
                         fmt(recorded.value), " ", tag("recorded", "recorded")) : "—";
  }
  const mark = row.ours.status === "optimal" ? " ✓" : "";
  const origin = row.ours.source === "store" ? tag("local", "local") : tag("ours", "ours");
  return el("span", { class: "ours", dataset: { source: row.ours.source, value: row.ours.value } },
    link(answerLink(puzzle, row.ours.instance), `${fmt(row.ours.value)}${mark}`), " ", origin);
}

function localCell(puzzle, row) {
  if (!row.local) return "—";
  return el("span", { class: "local" }, link(answerLink(puzzle, row.local.instance), fmt(row.local.value)), " ", tag("local", "local"));
}

function versusCell(row) {
  return row.versus ? el("span", { class: `versus versus-${row.versus}` }, VERSUS_WORDS[row.versus] || row.versus) : "—";
}

// ------------------------------------------------------------------ provenance, one click away
const PROVENANCE_ORDER = ["method", "command", "commands", "recorded", "cpu_seconds", "subtree_cpu_seconds", "wall_seconds",
  "seconds", "nodes", "workers", "commit", "machine", "record", "proof", "note", "how"];

function provenanceList(provenance) {
  const keys = Object.keys(provenance);
  keys.sort((a, b) => (PROVENANCE_ORDER.indexOf(a) + 1 || 99) - (PROVENANCE_ORDER.indexOf(b) + 1 || 99));
  return el("dl", {}, ...keys.flatMap((k) => {
    const v = provenance[k];
    const text = Array.isArray(v) ? v.join("\n") : v !== null && typeof v === "object" ? JSON.stringify(v) : fmt(v);
    return [el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, text)];
  }));
}

function showProvenance(box, title, views, shared) {
  box.replaceChildren(el("h4", {}, title), ...views.map((v) => el("div", { class: `how-item check-${v.check}` },
    el("p", {}, el("strong", {}, `${v.label}: ${fmt(v.value)}`), ` (${v.claim}) `, tag(CHECK_MARKS[v.check], v.check)),
    el("p", { class: "hint" }, v.reason),
    provenanceList({ ...(shared[v.source] || {}), ...v.provenance, file: v.source }))));
  box.hidden = false;
  box.dataset.shown = title;
  box.scrollIntoView({ block: "nearest" });
}

// The check badges of a row's shipped results, and its "how" button.
function checkCell(views, context, title, words = {}) {
  if (!views || !views.length) return "—";
  const badges = views.map((v) => el("span", { class: `check check-${v.check}`, title: v.reason },
    `${words[v.kind] || v.kind} ${CHECK_MARKS[v.check]}`));
  const button = el("button", { type: "button", class: "how", title: "how it was computed" }, "how");
  button.addEventListener("click", () => showProvenance(context.box, title, views, context.shared));
  return el("span", { class: "checks" }, ...badges, " ", button);
}

function context(d) {
  const shared = {};
  for (const s of d.sources || []) shared[s.source] = s.provenance || {};
  const box = el("div", { class: "provenance", hidden: "" });
  return { box, shared };
}

// At a glance: where ours beats or ties the published figures (the new records first),
// and any shipped row that failed its check.
function glance(d, puzzle) {
  const items = (d.highlights || []).map((h) => el("li", { class: `highlight hl-${h.versus}`, dataset: { versus: h.versus } },
    el("span", { class: `versus versus-${h.versus}` }, VERSUS_WORDS[h.versus] || h.versus), " ", h.text,
    ...(h.instances.length && h.instances.length <= 3 ? [" (", ...h.instances.flatMap((i, k) => [k ? ", " : "", link(answerLink(puzzle, i), i)]), ")"] : [])));
  const failures = (d.sources || []).flatMap((s) => s.failures.map((f) => el("li", {}, `${f.label}: `, f.reason, ` (${s.source})`)));
  if (d.unreadable) failures.push(el("li", {}, d.unreadable));
  return [
    items.length ? el("ul", { class: "highlights" }, ...items) : null,
    failures.length ? el("div", { class: "failures", role: "alert" }, el("strong", {}, "Shipped rows that failed their check (not shown as ours):"),
                                   el("ul", {}, ...failures)) : null,
  ].filter(Boolean);
}

function panel(title, ...children) { return el("div", { class: "dash-panel" }, el("h3", {}, title), ...children); }
function plots(...charts) { return el("div", { class: "dash-panel plots" }, el("h3", {}, "Plots"), el("div", { class: "plot-grid" }, ...charts)); }

// ------------------------------------------------------------------ matchsticks
function matchsticksDashboard(d) {
  const ctx = context(d);
  const rows = d.rows;
  const restricted = (r, name) => {
    const v = r.shipped.find((s) => s.kind === "column" && s.figures.column === name);
    const mark = !v ? "" : v.check === "failed" ? " ✗" : v.value === r[`${name}_best`] ? " ✓" : ` (${fmt(v.value)})`;
    return el("span", { title: v ? `${v.claim}: ${v.reason}` : "" }, fmt(r[`${name}_best`]), mark);
  };
  const words = { answer: "proof", record: "record", column: "" };
  const tbl = table([
    { head: "n", cell: (r) => link(solveLink("matchsticks", r.instance), r.n) },
    { head: "a(n)", cell: (r) => fmt(r.published) },
    { head: "", cell: (r) => (r.proven ? "proven" : "bound") },
    { head: "ours", cell: (r) => oursCell("matchsticks", r) },
    { head: "vs", cell: versusCell },
    { head: "local", cell: (r) => localCell("matchsticks", r) },
    { head: "checked", cell: (r) => checkCell(r.shipped.filter((s) => s.kind !== "column"), ctx, `n = ${r.n}`, words) },
    { head: "diag-1", cell: (r) => restricted(r, "diagonal1") },
    { head: "diag-20", cell: (r) => restricted(r, "diagonal20") },
    { head: "greedy", cell: (r) => restricted(r, "greedy") },
  ], rows, "matchsticks");
  const summary = el("p", { class: "hint" }, `${d.source}. Published values proven for n ≤ ${d.proven_to}, upper bounds to n = ${d.bounds_to}; `,
    `proven here: ${d.ours_proven.length ? rangeText(d.ours_proven) : "none yet"}. ✓ after a restricted optimum: reproduced here, checked.`);
  return [summary, ...glance(d, "matchsticks"), ctx.box, panel("A294249", el("div", { class: "scroll" }, tbl)),
          plots(matchsticksResidualPlot(d), matchsticksGapPlot(d))];
}

function rangeText(ns) {
  const runs = [];
  for (const n of [...ns].sort((a, b) => a - b)) {
    if (runs.length && n === runs[runs.length - 1][1] + 1) runs[runs.length - 1][1] = n; else runs.push([n, n]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : `${a}..${b}`)).join(", ");
}

// a(n) minus a smooth reference (the cubic least-squares fit to the published values),
// so that a difference of one match is visible; proven ranges shaded, new records marked.
function matchsticksResidualPlot(d) {
  const rows = d.rows.filter((r) => r.n > 0);
  const fit = cubicFit(rows.map((r) => r.n), rows.map((r) => r.published));
  const ref = (n) => fit[0] + fit[1] * n + fit[2] * n * n + fit[3] * n * n * n;
  const minus = (n, v) => Math.round((v - ref(n)) * 10) / 10;
  const below = rows.filter((r) => r.ours && r.ours.value < r.published);
  const above = rows.filter((r) => r.ours && r.ours.value > r.published);
  const proven = d.ours_proven.filter((n) => n > 0);
  return scatterPlot({
    title: "A294249: a(n) minus a smooth reference", xLabel: "n", yLabel: "a(n) − r(n) (matches)", width: 620, height: 320,
    bands: [{ from: 1, to: d.proven_to, label: `published proven ≤ ${d.proven_to}` },
            ...(proven.length ? [{ from: Math.min(...proven), to: Math.max(...proven), label: `proven here ≤ ${Math.max(...proven)}`, lower: true }] : [])],
    series: [
      { name: "a(n), published", kind: "published", shape: "circle", colour: COLOURS.published,
        points: rows.map((r) => ({ x: r.n, y: minus(r.n, r.published), href: figureLink("matchsticks", r), filled: r.proven,
                                   title: `n=${r.n}: a(n) ${r.proven ? "=" : "≤"} ${r.published} (${r.proven ? "proven" : "bound"})` })) },
      { name: "ours, new record", kind: "record", shape: "star", colour: COLOURS.record,
        points: below.map((r) => ({ x: r.n, y: minus(r.n, r.ours.value), href: answerLink("matchsticks", r.ours.instance), label: `a(${r.n}) ≤ ${r.ours.value}`,
                                    title: `n=${r.n}: ours ${r.ours.value} (${r.ours.status}), below the published ${r.published}` })) },
      { name: "ours, above a(n)", kind: "ours", shape: "cross", colour: COLOURS.ours,
        points: above.map((r) => ({ x: r.n, y: minus(r.n, r.ours.value), href: answerLink("matchsticks", r.ours.instance),
                                    title: `n=${r.n}: ours ${r.ours.value} (${r.ours.status}), published ${r.published}` })) },
    ],
    caption: `r(n) = ${fit.map((c, i) => `${i ? (c < 0 ? " − " : " + ") : ""}${(i ? Math.abs(c) : c).toFixed(i ? 4 : 2)}${["", "n", "n²", "n³"][i]}`).join("")}` +
             ": the cubic least-squares fit to the published a(n)",
  });
}

// Least squares of a cubic: the normal equations, solved by Gaussian elimination.
function cubicFit(xs, ys) {
  const k = 4, a = Array.from({ length: k }, () => new Array(k + 1).fill(0));
  xs.forEach((x, i) => {
    for (let r = 0; r < k; r++) {
      for (let c = 0; c < k; c++) a[r][c] += x ** (r + c);
      a[r][k] += ys[i] * x ** r;
    }
  });
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = a[r][c] / a[c][c];
      for (let j = c; j <= k; j++) a[r][j] -= f * a[c][j];
    }
  }
  return a.map((row, i) => row[k] / row[i]);
}

function matchsticksGapPlot(d) {
  const rows = d.rows.filter((r) => r.n > 0);
  return scatterPlot({
    title: "What the full search saves over the diagonal-1 search", xLabel: "n", yLabel: "diagonal1 − a(n)",
    series: [{ name: "saved matches", kind: "gap", shape: "square", colour: COLOURS.gap,
               points: rows.map((r) => ({ x: r.n, y: r.diagonal1_best - r.published, href: figureLink("matchsticks", r), title: `n=${r.n}` })) }],
  });
}

// ------------------------------------------------------------------ hexagon
function hexagonDashboard(d) {
  const ctx = context(d);
  const rows = d.rows;
  const words = { answer: "grid", proof: "proof" };
  const tbl = table([
    { head: "n", cell: (r) => el("a", { href: solveLink("hexagon", r.instance), title: `${fmt(r.cells)} cells, ${fmt(r.edges)} edges` }, r.n) },
    { head: "raw score", cell: (r) => fmt(r.published) },
    { head: "penalty", cell: (r) => fmt(r.published_penalty) },
    { head: "", cell: (r) => (r.proven ? "proven" : "best known") },
    { head: "levels 1/2/3/4-6", cell: (r) => (r.level_penalties ? r.level_penalties.join("/") : "—") },
    { head: "ours", cell: (r) => oursCell("hexagon", r) },
    { head: "our penalty", cell: (r) => fmt(r.ours_penalty) },
    { head: "vs", cell: versusCell },
    { head: "local", cell: (r) => localCell("hexagon", r) },
    { head: "checked", cell: (r) => checkCell(r.shipped, ctx, `n = ${r.n}`, words) },
  ], rows, "hexagon");
  const counts = table([
    { head: "n", cell: (c) => c.n },
    { head: "level", cell: (c) => c.level },
    { head: "penalty", cell: (c) => fmt(c.penalty) },
    { head: "published", cell: (c) => fmt(c.published) },
    { head: "ours", cell: (c) => (c.ours === null ? "—" : el("span", {}, fmt(c.ours), " ", tag("recorded", "recorded"))) },
    { head: "vs", cell: versusCell },
    { head: "checked", cell: (c) => checkCell([c.shipped], ctx, `n = ${c.n}, level ${c.level}`, { count: "count" }) },
  ], d.counts, "counts");
  const summary = el("p", { class: "hint" }, `${d.source}. Published scores proven for n = ${d.proven_range.join("..")}; `,
    `proven here: ${d.ours_proven.length ? rangeText(d.ours_proven) : "none yet"}; reached here: ${d.ours_reached.length ? rangeText(d.ours_reached) : "none yet"}.`);
  return [summary, ...glance(d, "hexagon"), ctx.box, panel("By order n", el("div", { class: "scroll" }, tbl)),
          panel("Solution counts (the write-up's table, reproduced by the row DP)", el("div", { class: "scroll short" }, counts)),
          plots(hexagonPenaltyPlot(d), hexagonScorePlot(d))];
}

function hexagonPenaltyPlot(d) {
  const rows = d.rows;
  const proven = d.ours_proven;
  const band = proven.length ? [{ from: Math.min(...proven), to: Math.max(...proven), label: `proven here n=${rangeText(proven)}` }] : [];
  const level = (i, name, dash, colour) => ({ name, kind: "level", shape: "square", colour, line: true, dash, small: true,
    points: rows.filter((r) => r.level_penalties).map((r) => ({ x: r.n, y: r.level_penalties[i], title: `n=${r.n}: ${name} ${r.level_penalties[i]}` })) });
  return scatterPlot({
    title: "Penalty edges by n", xLabel: "n", yLabel: "penalty edges", bands: band, width: 620, height: 320,
    series: [
      { name: "published best", kind: "published", shape: "circle", colour: COLOURS.published,
        points: rows.map((r) => ({ x: r.n, y: r.published_penalty, href: figureLink("hexagon", r), filled: r.proven,
                                   title: `n=${r.n}: penalty ${r.published_penalty} (${r.proven ? "proven" : "best known"})` })) },
      level(0, "lowest, level 1", "1 3", "#c9c96b"), level(1, "lowest, level 2", "2 3", "#999933"), level(2, "lowest, level 3", "5 3", "#5f5f1a"),
      { name: "ours", kind: "ours", shape: "cross", colour: COLOURS.ours,
        points: rows.filter((r) => r.ours).map((r) => ({ x: r.n, y: r.ours_penalty, href: answerLink("hexagon", r.ours.instance),
                                                        title: `n=${r.n}: ours raw ${r.ours.value}, penalty ${r.ours_penalty} (${r.ours.status})` })) },
    ],
  });
}

function hexagonScorePlot(d) {
  const rows = d.rows;
  return scatterPlot({
    title: "Raw score by n", xLabel: "n", yLabel: "raw score",
    series: [
      { name: "published", kind: "published", shape: "circle", colour: COLOURS.published,
        points: rows.map((r) => ({ x: r.n, y: r.published, href: figureLink("hexagon", r), filled: r.proven, title: `n=${r.n}: raw ${r.published}` })) },
      { name: "ours", kind: "ours", shape: "cross", colour: COLOURS.ours,
        points: rows.filter((r) => r.ours).map((r) => ({ x: r.n, y: r.ours.value, href: answerLink("hexagon", r.ours.instance), title: `n=${r.n}: ours ${r.ours.value}` })) },
    ],
  });
}

// ------------------------------------------------------------------ coins
function coinsFontMap(font) {
  const all = [...font.published.flat(), ...font.ours.flat()].filter((v) => v !== null);
  const max = all.length ? Math.max(...all) : 1, min = all.length ? Math.min(...all) : 0;
  const cells = [];
  font.glyphs.forEach((a, i) => font.glyphs.forEach((b, j) => {
    if (i === j) return;
    const name = `${font.font}:${a}-${b}`;
    const ours = font.ours[i][j], published = font.published[i][j];
    const solved = ours !== null && font.ours_status[i][j] === "optimal";
    const value = ours !== null ? ours : published;
    const kind = solved ? "solved" : ours !== null ? "found" : published !== null ? "published" : "unknown";
    const words = [`${a} → ${b}`, ours !== null ? `ours ${ours} (${font.ours_status[i][j]})` : "not solved here",
                   published !== null ? `published ${published}` : "no published length shipped"];
    cells.push({ row: i, col: j, value, kind, href: ours !== null ? answerLink("coins", name) : solveLink("coins", name),
                 title: words.join("; "), opacity: ours !== null ? 1 : 0.35,
                 outline: ours !== null && published !== null && ours !== published ? "#d62728" : null });
  }));
  return heatMap({ rows: font.glyphs.length, cols: font.glyphs.length, cell: 11, title: `${font.font}: optimal number of moves`,
                   rowLabels: font.glyphs, colLabels: font.glyphs, cells, min, max, legendLabel: "moves" });
}

// One histogram per font: how many puzzles need k moves (ours, and the published sample).
function coinsHistogram(font) {
  const counts = new Map();
  for (const [key, grid] of [["ours", font.ours], ["published", font.published]]) {
    for (const v of grid.flat()) if (v !== null) {
      const entry = counts.get(v) || { moves: v, ours: 0, published: 0 };
      entry[key] += 1;
      counts.set(v, entry);
    }
  }
  const bins = [...counts.values()].sort((a, b) => a.moves - b.moves);
  return histogram({
    title: `${font.font}: puzzles by optimal number of moves`, xLabel: "moves", yLabel: "puzzles",
    bins: bins.map((b) => ({ x: b.moves, bars: [
      { kind: "ours", value: b.ours, colour: COLOURS.ours, title: `${b.moves} moves: ${b.ours} puzzles solved here` },
      { kind: "published", value: b.published, colour: COLOURS.published, title: `${b.moves} moves: ${b.published} in the published sample` }] })),
  });
}

function coinsDashboard(d) {
  const ctx = context(d);
  const how = d.provenance ? el("button", { type: "button", class: "how" }, "how the table was computed") : null;
  if (how) how.addEventListener("click", () => { ctx.box.replaceChildren(el("h4", {}, d.provenance.source), provenanceList(d.provenance)); ctx.box.hidden = false; });
  const counts = table([
    { head: "font", cell: (f) => el("span", { title: `${f.width} x ${f.height} cells, ${f.coins} coins` }, f.font) },
    { head: "puzzles", cell: (f) => fmt(f.counts.puzzles) },
    { head: "published", cell: (f) => fmt(f.counts.published) },
    { head: "solved", cell: (f) => fmt(f.counts.solved) },
    { head: "not proven", cell: (f) => fmt(f.counts.found) },
    { head: "agree / differ", cell: (f) => `${f.counts.agree} / ${f.counts.disagree}` },
    { head: "local", cell: (f) => fmt(f.counts.local) },
  ], d.fonts);
  const checked = (d.sources || []).map((s) => el("p", { class: "hint" },
    `${s.source}: ${fmt(s.verified)} replayed by the checker and verified`, s.failed ? `, ${s.failed} failed` : "", ". ", how));
  // One font's map at a time (1,332 linked cells each); the buttons switch in place.
  const holder = el("figure", { class: "coins-map" });
  const switcher = el("div", { class: "font-switch" });
  const show = (font) => {
    holder.dataset.font = font.font;
    holder.replaceChildren(coinsFontMap(font), el("figcaption", { class: "hint" }, `${font.font}: row = start glyph, column = target glyph`));
    for (const b of switcher.querySelectorAll("button")) b.classList.toggle("active", b.dataset.font === font.font);
  };
  for (const f of d.fonts) {
    const b = el("button", { type: "button", dataset: { font: f.font } }, f.font);
    b.addEventListener("click", () => show(f));
    switcher.append(b);
  }
  if (d.fonts.length) show(d.fonts[0]);
  const summary = el("p", { class: "hint" }, `Published lengths: ${d.source} (a sample). Solid cells: solved here` +
    `${d.answer_sources.length ? " (" + d.answer_sources.join(", ") + ", and this machine's store)" : ""}; pale: published only; grey: unknown; red outline: ours differs.`);
  return [summary, ...glance(d, "coins"), ctx.box, panel("Solved", counts, ...checked),
          plots(...d.fonts.map(coinsHistogram)), panel("Start × target", switcher, holder)];
}

// ------------------------------------------------------------------ tiling
function tilingMap(d) {
  const cells = [];
  for (let m = 1; m <= d.m_max; m++) {
    for (let n = m; n <= d.n_max; n++) {
      const published = d.published[m - 1][n - 1], ours = d.ours[m - 1][n - 1];
      if (published === null && ours === null) continue;
      const value = published !== null ? published : ours;
      const words = [`${m} x ${n}`, published !== null ? `A219158 = ${published}` : "not in the published table shipped",
                     ours !== null ? `ours ${ours} (${d.ours_status[m - 1][n - 1]})` : "not solved here"];
      cells.push({
        row: m - 1, col: n - 1, value, kind: published !== null ? (ours !== null ? "both" : "published") : "ours",
        href: ours !== null ? answerLink("tiling", d.ours_instance[m - 1][n - 1]) : solveLink("tiling", `${n}x${m}`),
        title: words.join("; "), outline: ours !== null && published !== null ? (ours === published ? "#000" : "#d62728") : null,
      });
    }
  }
  for (const f of d.computed_failed) {
    cells.push({ row: f.m - 1, col: f.n - 1, value: null, kind: "failed", title: `${f.m} x ${f.n}: shipped row failed: ${f.reason}`, outline: "#d62728" });
  }
  const values = cells.map((c) => c.value).filter((v) => v !== null);
  return heatMap({
    rows: d.m_max, cols: d.n_max, cell: 8, title: "A219158: fewest squares tiling m x n", labelEvery: 10,
    rowLabels: Array.from({ length: d.m_max }, (_, i) => (i % 5 === 4 || i === 0 ? String(i + 1) : "")),
    colLabels: Array.from({ length: d.n_max }, (_, i) => String(i + 1)),
    cells, min: Math.min(...values), max: Math.max(...values), legendLabel: "squares",
  });
}

function tilingDashboard(d) {
  const ctx = context(d);
  const contests = table([
    { head: "puzzle", cell: (r) => link(solveLink("tiling", r.instance), r.instance) },
    { head: "size", cell: (r) => `${r.width}x${r.height}` },
    { head: "optimum", cell: (r) => fmt(r.published) },
    { head: "ours", cell: (r) => oursCell("tiling", r) },
    { head: "vs", cell: versusCell },
    { head: "local", cell: (r) => localCell("tiling", r) },
    { head: "checked", cell: (r) => checkCell(r.shipped, ctx, r.instance, { answer: "tiling" }) },
  ], d.contests, "contests");
  const rects = table([
    { head: "rectangle", cell: (r) => link(solveLink("tiling", r.instance), r.instance) },
    { head: "A219158", cell: (r) => fmt(r.published) },
    { head: "ours", cell: (r) => oursCell("tiling", r) },
    { head: "vs", cell: versusCell },
    { head: "local", cell: (r) => localCell("tiling", r) },
  ], d.rectangles, "rectangles");
  const rows = (d.sources || []).find((s) => d.computed_rows.length && s.source.startsWith("A219158"));
  const how = rows ? el("button", { type: "button", class: "how" }, "how rows 16..20 were computed") : null;
  if (how) how.addEventListener("click", () => { ctx.box.replaceChildren(el("h4", {}, rows.source), provenanceList(rows.provenance)); ctx.box.hidden = false; });
  const summary = el("p", { class: "hint" }, `${d.source}. Heat map: rows m = 1..${d.m_max}, columns n = 1..${d.n_max}: the published table ` +
    `(m ≤ ${d.published_m_max}, n ≤ ${d.published_n_max}) and the rows m = ${rangeText(d.computed_rows)} computed here (each tiling checked); ` +
    "outlined cells are solved here (black: equal to the published value, red: differs).");
  return [summary, ...glance(d, "tiling"), ctx.box,
          panel("Contest puzzles", contests, el("h4", {}, "Rectangles"), rects),
          panel("A219158", el("figure", { class: "tiling-map" }, tilingMap(d)), how)];
}

// ------------------------------------------------------------------ macmahon
function macmahonDashboard(d) {
  const ctx = context(d);
  const groups = d.rows.filter((r) => r.published !== null || r.ours).map((r) => ({
    label: r.instance,
    bars: [
      ...(r.published !== null ? [{ kind: "published", value: r.published, colour: COLOURS.published, filled: false,
                                    href: figureLink("macmahon", r), title: `${r.instance}: published ${fmt(r.published)}` }] : []),
      ...(r.ours ? [{ kind: "ours", value: r.ours.value, colour: COLOURS.ours, filled: true,
                      href: answerLink("macmahon", r.ours.instance), title: `${r.instance}: ours ${fmt(r.ours.value)}` }] : []),
    ],
  }));
  const chart = groups.length
    ? barChart({ title: "Solutions (log scale)", yLabel: "solutions", groups })
    : el("p", { class: "hint" }, "Nothing counted yet.");
  const tbl = table([
    { head: "instance", cls: "wrap", cell: (r) => el("span", {}, link(solveLink("macmahon", r.instance), r.instance), el("br"),
                                                         el("span", { class: "description" }, r.description)) },
    { head: "published", cell: (r) => fmt(r.published) },
    { head: "ours", cell: (r) => oursCell("macmahon", r) },
    { head: "vs", cell: versusCell },
    { head: "local", cell: (r) => localCell("macmahon", r) },
    { head: el("span", { title: "classes up to the full group, the board's symmetries, the half turn, the colour swap" }, "classes", el("br"), "full/\u200bboard/\u200bturn/\u200bcolours"),
      cls: "soft", cell: (r) => (Object.keys(r.classes).length ? ["full", "board", "rotations", "colours"].map((g) => fmt(r.classes[g])).join(" / ") : "—") },
    { head: "checked", cell: (r) => checkCell(r.shipped, ctx, r.instance, { count: "count" }) },
  ], d.rows, "macmahon");
  return [el("p", { class: "hint" }, "Counts with the board held fixed; classes up to each symmetry group, from the verified certificate. Outlined bars: published; filled: ours."),
          ...glance(d, "macmahon"), ctx.box, panel("Counts", tbl), plots(chart)];
}

const DASHBOARDS = { matchsticks: matchsticksDashboard, hexagon: hexagonDashboard, coins: coinsDashboard, tiling: tilingDashboard, macmahon: macmahonDashboard };

async function showDashboard(name) {
  const chosen = DASHBOARDS[name] ? name : DASHBOARD_NAMES[0];
  for (const tab of document.querySelectorAll("#dash-tabs a")) tab.classList.toggle("active", tab.dataset.puzzle === chosen);
  const box = document.getElementById("dashboard");
  box.dataset.puzzle = chosen;
  box.dataset.state = "loading";
  try {
    const data = await api(`/api/records/${chosen}/dashboard`);
    if (box.dataset.puzzle !== chosen) return; // another tab was chosen meanwhile
    box.replaceChildren(el("div", { class: "dash-grid" }, ...DASHBOARDS[chosen](data)));
    box.dataset.state = "ready";
    performance.mark(`ready:records/${chosen}`);
  } catch (e) {
    box.replaceChildren(el("p", { class: "error" }, e.message));
    box.dataset.state = "error";
  }
}

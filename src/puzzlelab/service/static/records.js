// The Records view: one dashboard per puzzle (GET /api/records/{puzzle}/dashboard),
// tables and plots side by side. Every figure links to its instance on the Solve page,
// or to its verified answer where one is known (#answer/{puzzle}/{instance}).
"use strict";

const DASHBOARD_NAMES = ["matchsticks", "hexagon", "coins", "tiling", "macmahon"];
const COLOURS = { published: "#4477aa", bound: "#4477aa", ours: "#ee6677", level: "#999933", gap: "#228833" };

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

// A table: columns [{head, cell: row -> Node|text}], rows.
function table(columns, rows, cls = "") {
  return el("table", { class: `dash-table ${cls}` },
    el("thead", {}, el("tr", {}, ...columns.map((c) => el("th", {}, c.head)))),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, ...columns.map((c) => el("td", {}, c.cell(r)))))));
}

function oursCell(puzzle, row) {
  if (!row.ours) return "—";
  const mark = row.ours.status === "optimal" ? " ✓" : "";
  return link(answerLink(puzzle, row.ours.instance), `${fmt(row.ours.value)}${mark}`);
}

function panel(title, ...children) { return el("div", { class: "dash-panel" }, el("h3", {}, title), ...children); }

// ------------------------------------------------------------------ matchsticks
function matchsticksDashboard(d) {
  const rows = d.rows.filter((r) => r.n > 0);
  const points = (pick, extra = {}) => rows.map((r) => ({ x: r.n, y: pick(r), href: figureLink("matchsticks", r),
                                                         title: `n=${r.n}: a(n)=${r.published} (${r.proven ? "proven" : "bound"})`, ...extra }));
  const ours = rows.filter((r) => r.ours).map((r) => ({ x: r.n, y: r.ours.value, href: answerLink("matchsticks", r.ours.instance),
                                                        title: `n=${r.n}: ours ${r.ours.value} (${r.ours.status})` }));
  const main = scatterPlot({
    title: "A294249: fewest matches by n", xLabel: "n", yLabel: "matches",
    bands: [{ from: 1, to: d.proven_to, label: `proven to n=${d.proven_to}` }],
    series: [
      { name: "published", kind: "published", shape: "circle", colour: COLOURS.published,
        points: points((r) => r.published).map((p, i) => ({ ...p, filled: rows[i].proven })) },
      { name: "ours", kind: "ours", shape: "cross", colour: COLOURS.ours, points: ours },
    ],
  });
  const gap = scatterPlot({
    title: "What the full search saves over the diagonal-1 search", xLabel: "n", yLabel: "diagonal1 − a(n)",
    series: [{ name: "saved matches", kind: "gap", shape: "square", colour: COLOURS.gap, points: points((r) => r.diagonal1_best - r.published) }],
  });
  const tbl = table([
    { head: "n", cell: (r) => link(solveLink("matchsticks", r.instance), r.n) },
    { head: "a(n)", cell: (r) => fmt(r.published) },
    { head: "", cell: (r) => (r.proven ? "proven" : "bound") },
    { head: "ours", cell: (r) => (r.ours && r.ours.value < r.published
      ? el("span", {}, oursCell("matchsticks", r), el("strong", { class: "new-record" }, " new record"))
      : oursCell("matchsticks", r)) },
    { head: "diag-1", cell: (r) => fmt(r.diagonal1_best) },
    { head: "greedy", cell: (r) => fmt(r.greedy_best) },
  ], d.rows);
  const summary = el("p", { class: "hint" }, `${d.source}. Proven for n ≤ ${d.proven_to}, upper bounds to n = ${d.bounds_to}; `,
    `proven here: ${d.ours_proven.length ? d.ours_proven.join(", ") : "none yet"}. Filled circles: proven; hollow: bounds.`);
  return [summary, panel("A294249", el("div", { class: "scroll" }, tbl)), panel("Plots", main, gap)];
}

// ------------------------------------------------------------------ hexagon
function hexagonDashboard(d) {
  const rows = d.rows;
  const title = (r) => `n=${r.n}: raw ${r.published}, penalty ${r.published_penalty} (${r.proven ? "proven" : "best known"})`;
  const band = d.proven_range.length ? [{ from: d.proven_range[0], to: d.proven_range[1], label: `proven n=${d.proven_range[0]}..${d.proven_range[1]}` }] : [];
  const ours = (pick) => rows.filter((r) => r.ours).map((r) => ({ x: r.n, y: pick(r), href: answerLink("hexagon", r.ours.instance),
                                                                  title: `n=${r.n}: ours raw ${r.ours.value}, penalty ${r.ours_penalty}` }));
  const penalties = scatterPlot({
    title: "Penalty edges by n", xLabel: "n", yLabel: "penalty edges", bands: band,
    series: [
      { name: "published best", kind: "published", shape: "circle", colour: COLOURS.published,
        points: rows.map((r) => ({ x: r.n, y: r.published_penalty, href: figureLink("hexagon", r), title: title(r), filled: r.proven })) },
      { name: "lowest, level 3", kind: "level", shape: "square", colour: COLOURS.level, line: true,
        points: rows.filter((r) => r.level_penalties).map((r) => ({ x: r.n, y: r.level_penalties[2], title: `n=${r.n}: level 3 ≥ ${r.level_penalties[2]}` })) },
      { name: "ours", kind: "ours", shape: "cross", colour: COLOURS.ours, points: ours((r) => r.ours_penalty) },
    ],
  });
  const scores = scatterPlot({
    title: "Raw score by n", xLabel: "n", yLabel: "raw score", bands: band,
    series: [
      { name: "published", kind: "published", shape: "circle", colour: COLOURS.published,
        points: rows.map((r) => ({ x: r.n, y: r.published, href: figureLink("hexagon", r), title: title(r), filled: r.proven })) },
      { name: "ours", kind: "ours", shape: "cross", colour: COLOURS.ours, points: ours((r) => r.ours.value) },
    ],
  });
  const tbl = table([
    { head: "n", cell: (r) => link(solveLink("hexagon", r.instance), r.n) },
    { head: "cells", cell: (r) => fmt(r.cells) },
    { head: "raw score", cell: (r) => fmt(r.published) },
    { head: "penalty", cell: (r) => fmt(r.published_penalty) },
    { head: "", cell: (r) => (r.proven ? "proven" : "best known") },
    { head: "levels 1/2/3/4-6", cell: (r) => (r.level_penalties ? r.level_penalties.join(" / ") : "—") },
    { head: "ours", cell: (r) => oursCell("hexagon", r) },
    { head: "our penalty", cell: (r) => fmt(r.ours_penalty) },
  ], rows);
  const summary = el("p", { class: "hint" }, `${d.source}. Published scores proven for n = ${d.proven_range.join("..")}; `,
    `proven here: ${d.ours_proven.length ? d.ours_proven.join(", ") : "none yet"}; reached here: ${d.ours_reached.length ? d.ours_reached.join(", ") : "none yet"}.`);
  return [summary, panel("By order n", el("div", { class: "scroll" }, tbl)), panel("Plots", penalties, scores)];
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

function coinsDashboard(d) {
  const counts = table([
    { head: "font", cell: (f) => el("span", { title: `${f.width} x ${f.height} cells, ${f.coins} coins` }, f.font) },
    { head: "puzzles", cell: (f) => fmt(f.counts.puzzles) },
    { head: "published", cell: (f) => fmt(f.counts.published) },
    { head: "solved", cell: (f) => fmt(f.counts.solved) },
    { head: "not proven", cell: (f) => fmt(f.counts.found) },
    { head: "agree / differ", cell: (f) => `${f.counts.agree} / ${f.counts.disagree}` },
  ], d.fonts);
  const lengths = new Map();
  for (const f of d.fonts) {
    for (const [key, grid] of [["published", f.published], ["ours", f.ours]]) {
      for (const v of grid.flat()) if (v !== null) {
        const entry = lengths.get(v) || { moves: v, published: 0, ours: 0 };
        entry[key] += 1;
        lengths.set(v, entry);
      }
    }
  }
  const histogram = table([
    { head: "moves", cell: (r) => r.moves }, { head: "published", cell: (r) => r.published }, { head: "ours", cell: (r) => r.ours },
  ], [...lengths.values()].sort((a, b) => a.moves - b.moves));
  // One font's map at a time (1,332 linked cells each); the buttons switch in place.
  const holder = el("figure", { class: "coins-map" });
  const show = (font) => {
    holder.dataset.font = font.font;
    holder.replaceChildren(coinsFontMap(font), el("figcaption", { class: "hint" }, `${font.font}: row = start glyph, column = target glyph`));
    for (const b of switcher.querySelectorAll("button")) b.classList.toggle("active", b.dataset.font === font.font);
  };
  const switcher = el("div", { class: "font-switch" }, ...d.fonts.map((f) => {
    const b = el("button", { type: "button", dataset: { font: f.font } }, f.font);
    b.addEventListener("click", () => show(f));
    return b;
  }));
  if (d.fonts.length) show(d.fonts[0]);
  const maps = [switcher, holder];
  const summary = el("p", { class: "hint" }, `Published lengths: ${d.source} (a sample). Solid cells: solved here` +
    `${d.answer_sources.length ? " (store and " + d.answer_sources.join(", ") + ")" : ""}; pale: published only; grey: unknown; red outline: ours differs.`);
  return [summary, panel("Solved", counts, el("h4", {}, "Optimal lengths"), el("div", { class: "scroll short" }, histogram)), panel("Start × target", ...maps)];
}

// ------------------------------------------------------------------ tiling
function tilingDashboard(d) {
  const cells = [];
  for (let m = 1; m <= d.m_max; m++) {
    for (let n = m; n <= d.n_max; n++) {
      const published = d.published[m - 1][n - 1];
      if (published === null) continue;
      const ours = d.ours[m - 1][n - 1];
      cells.push({
        row: m - 1, col: n - 1, value: published, kind: ours !== null ? "ours" : "published",
        href: ours !== null ? answerLink("tiling", d.ours_instance[m - 1][n - 1]) : solveLink("tiling", `${n}x${m}`),
        title: `${m} x ${n}: A219158 = ${published}${ours !== null ? `; ours ${ours} (${d.ours_status[m - 1][n - 1]})` : ""}`,
        outline: ours !== null ? (ours === published ? "#000" : "#d62728") : null,
      });
    }
  }
  const flat = d.published.flat().filter((v) => v !== null);
  const map = heatMap({
    rows: d.m_max, cols: d.n_max, cell: 11, title: "A219158: fewest squares tiling m x n", labelEvery: 5,
    rowLabels: Array.from({ length: d.m_max }, (_, i) => String(i + 1)), colLabels: Array.from({ length: d.n_max }, (_, i) => String(i + 1)),
    cells, min: Math.min(...flat), max: Math.max(...flat), legendLabel: "squares",
  });
  const contests = table([
    { head: "puzzle", cell: (r) => link(solveLink("tiling", r.instance), r.instance) },
    { head: "size", cell: (r) => `${r.width}x${r.height}` },
    { head: "optimum", cell: (r) => fmt(r.published) },
    { head: "ours", cell: (r) => oursCell("tiling", r) },
  ], d.contests);
  const rects = table([
    { head: "rectangle", cell: (r) => link(solveLink("tiling", r.instance), r.instance) },
    { head: "A219158", cell: (r) => fmt(r.published) },
    { head: "ours", cell: (r) => oursCell("tiling", r) },
  ], d.rectangles);
  const summary = el("p", { class: "hint" }, `${d.source}. Heat map: rows m = 1..${d.m_max}, columns n = 1..${d.n_max}; outlined cells are solved here (black: equal, red: differs).`);
  return [summary, panel("Contest puzzles", contests, el("h4", {}, "Rectangles"), rects),
          panel("A219158", el("figure", { class: "tiling-map" }, map))];
}

// ------------------------------------------------------------------ macmahon
function macmahonDashboard(d) {
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
    { head: "instance", cell: (r) => link(solveLink("macmahon", r.instance), r.instance) },
    { head: "published", cell: (r) => fmt(r.published) },
    { head: "ours", cell: (r) => oursCell("macmahon", r) },
    { head: "classes: full / board / turn / colours", cell: (r) => (Object.keys(r.classes).length
      ? ["full", "board", "rotations", "colours"].map((g) => fmt(r.classes[g])).join(" / ") : "—") },
    { head: "", cell: (r) => el("span", { class: "wrap" }, r.description) },
  ], d.rows);
  return [el("p", { class: "hint" }, "Counts with the board held fixed; classes up to each symmetry group, from the verified certificate. Outlined bars: published; filled: ours."),
          panel("Counts", el("div", { class: "scroll" }, tbl)), panel("Plot", chart)];
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

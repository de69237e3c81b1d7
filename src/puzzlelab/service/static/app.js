// puzzlelab workbench page: pick a puzzle, an instance and a method, run it as a job,
// watch its progress over server-sent events, and show the verified result.
// Everything comes from the REST API; nothing here knows any particular puzzle.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { puzzles: [], puzzle: null, job: null, events: null };

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const text = await response.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = { detail: text }; }
  if (!response.ok) {
    const detail = body && body.detail ? body.detail : response.statusText;
    throw new Error(`${response.status}: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
  }
  return body;
}

function option(value, text) {
  const el = document.createElement("option");
  el.value = value;
  el.textContent = text === undefined ? value : text;
  return el;
}

// ------------------------------------------------------------------ the form
async function loadPuzzles() {
  state.puzzles = await api("/api/puzzles");
  const select = $("puzzle");
  select.replaceChildren(...state.puzzles.map((p) => option(p.name, `${p.name}: ${p.title}`)));
  if (!state.puzzles.length) {
    $("form-error").textContent = "No puzzles are registered.";
    return;
  }
  await choosePuzzle(state.puzzles[0].name);
}

async function choosePuzzle(name) {
  state.puzzle = state.puzzles.find((p) => p.name === name);
  $("puzzle").value = name;
  const methods = state.puzzle.methods;
  $("method").replaceChildren(...methods.map((m) => option(m.name, m.name + (m.exact ? " (exact)" : ""))));
  $("method").value = state.puzzle.default_method;
  $("budget").value = state.puzzle.default_budget;
  chooseMethod();
  const catalog = await api(`/api/puzzles/${encodeURIComponent(name)}/catalog`);
  // Another puzzle was picked while this catalog loaded: its own call fills the list.
  if (state.puzzle.name !== name) return;
  $("catalog").replaceChildren(...catalog.map((c) => {
    const el = option(c.name);
    el.dataset.description = c.description;
    return el;
  }));
  if (catalog.some((c) => c.name === state.puzzle.tour_instance)) $("catalog").value = state.puzzle.tour_instance;
  describeCatalogEntry();
  schedulePreview(0);
}

function describeCatalogEntry() {
  const selected = $("catalog").selectedOptions[0];
  $("catalog-description").textContent = selected ? selected.dataset.description || "" : "";
}

function currentMethod() {
  return state.puzzle.methods.find((m) => m.name === $("method").value);
}

function chooseMethod() {
  const method = currentMethod();
  $("method-summary").textContent = method ? method.summary : "";
  const box = $("options");
  box.replaceChildren();
  for (const opt of method ? method.options : []) {
    const label = document.createElement("label");
    label.title = opt.help;
    let input;
    if (opt.choices && opt.choices.length) {
      input = document.createElement("select");
      input.append(...opt.choices.map((c) => option(String(c))));
      if (opt.default !== null) input.value = String(opt.default);
    } else {
      input = document.createElement("input");
      if (opt.kind === "bool") {
        input.type = "checkbox";
        input.checked = Boolean(opt.default);
      } else {
        input.type = opt.kind === "int" || opt.kind === "float" ? "number" : "text";
        if (opt.kind === "float") input.step = "any";
        if (opt.minimum !== null) input.min = opt.minimum;
        if (opt.maximum !== null) input.max = opt.maximum;
        input.value = opt.default === null ? "" : Array.isArray(opt.default) ? opt.default.join(",") : opt.default;
      }
    }
    input.id = `opt-${opt.name}`;
    input.dataset.option = opt.name;
    input.dataset.kind = opt.kind;
    label.append(`${opt.flag} `, input);
    const help = document.createElement("span");
    help.className = "hint";
    help.textContent = ` ${opt.help}`;
    label.append(help);
    box.append(label);
  }
}

function collectOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    if (input.dataset.kind === "bool") options[input.dataset.option] = input.checked;
    else if (input.value !== "") options[input.dataset.option] = input.value;
  }
  return options;
}

async function instanceFromForm() {
  if ($("source-catalog").checked) return $("catalog").value;
  const file = $("instance-file").files[0];
  const text = file ? await file.text() : $("instance-text").value;
  const trimmed = text.trim();
  if (!trimmed) throw new Error("instance: paste an instance or choose a file");
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try { return JSON.parse(trimmed); } catch (e) { /* let the server say what is wrong */ }
  }
  return text;
}

// ------------------------------------------------------------------ preview
// The instance drawn as soon as it is chosen or pasted (POST /api/preview: parsed and
// drawn, never solved); a parse error is shown inline. Only the latest request counts.
let previewTimer = null, previewSerial = 0, previewUrl = null;

function schedulePreview(delay = 350) {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(() => preview().catch((e) => showPreviewError(e.message)), delay);
}

function showPreviewError(message) {
  $("preview-error").textContent = message;
  $("preview").dataset.state = message ? "error" : "ready";
  if (message) {
    $("preview-picture").hidden = true;
    $("preview-text-box").hidden = true;
  }
}

// The moment a view is drawn, for benchmarks/bench_page_load.py (performance.mark).
function markReady(view) { performance.mark(`ready:${view}`); }

async function preview() {
  if (!state.puzzle || $("solve-view").hidden) return; // drawn when the Solve view is shown
  const serial = ++previewSerial;
  $("preview").dataset.state = "loading";
  let instance;
  try {
    instance = await instanceFromForm();
  } catch (e) {
    if (serial === previewSerial) { $("preview-key").textContent = ""; showPreviewError(e.message); }
    return;
  }
  let view;
  try {
    view = await api("/api/preview", { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify({ puzzle: state.puzzle.name, instance }) });
  } catch (e) {
    if (serial === previewSerial) { $("preview-key").textContent = ""; $("preview-description").textContent = ""; showPreviewError(e.message); }
    return;
  }
  if (serial !== previewSerial) return;
  $("preview-key").textContent = view.instance;
  const published = view.published ? `published ${view.published.value}${view.published.proven ? " (proven)" : ""}` : "";
  $("preview-description").textContent = [view.description, published].filter(Boolean).join(" · ");
  $("preview-note").textContent = view.note || "";
  const img = $("preview-picture");
  if (previewUrl) URL.revokeObjectURL(previewUrl);
  previewUrl = view.svg ? URL.createObjectURL(new Blob([view.svg], { type: "image/svg+xml" })) : null;
  if (previewUrl) img.src = previewUrl;
  img.hidden = !previewUrl;
  $("preview-text").textContent = view.text || "";
  $("preview-text-box").hidden = !view.text;
  showPreviewError("");
  markReady("solve");
}

// ------------------------------------------------------------------ jobs
async function run(event) {
  event.preventDefault();
  $("form-error").textContent = "";
  let body;
  try {
    body = {
      puzzle: state.puzzle.name,
      instance: await instanceFromForm(),
      method: $("method").value,
      options: collectOptions(),
      budget: Number($("budget").value) || null,
      seed: Number($("seed").value) || 0,
    };
  } catch (e) {
    $("form-error").textContent = e.message;
    return;
  }
  try {
    const job = await api("/api/jobs", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    follow(job);
  } catch (e) {
    $("form-error").textContent = e.message;
  }
}

// The job panel emptied for `job`.
function resetJobPanel(job) {
  if (state.events) state.events.close();
  state.job = job;
  $("job").hidden = false;
  $("job-id").textContent = job.id;
  $("figures").tBodies[0].replaceChildren();
  $("verdict").textContent = "";
  $("verdict").className = "";
  $("job-error").textContent = "";
  $("solution").textContent = "";
  $("picture").hidden = true;
  $("picture").removeAttribute("src");
  stopStepper();
  for (const sel of [".exports", ".stepper"]) $("job-answer").querySelector(sel).replaceChildren();
  $("job-answer").querySelector(".stepper").hidden = true;
  $("job-answer").querySelector("details").hidden = true;
  $("progress-bar").removeAttribute("value");
  $("progress-text").textContent = "";
  $("progress-chart").replaceChildren();
  showState(job);
}

function follow(job) {
  resetJobPanel(job);
  $("run").disabled = true;
  $("cancel").disabled = false;
  const source = new EventSource(`/api/jobs/${job.id}/events`);
  state.events = source;
  source.addEventListener("state", (e) => showState(JSON.parse(e.data).job));
  source.addEventListener("progress", (e) => { showProgress(JSON.parse(e.data).progress); scheduleChart(job.id); });
  source.addEventListener("done", (e) => { source.close(); finished(JSON.parse(e.data).job); });
  source.onerror = () => { source.close(); poll(job.id); };
}

async function poll(id) {
  // Fallback when the event stream drops: ask until the job ends.
  const job = await api(`/api/jobs/${id}`);
  if (["done", "failed", "cancelled", "interrupted"].includes(job.state)) finished(job);
  else { showState(job); setTimeout(() => poll(id), 500); }
}

function showState(job) {
  $("job-state").textContent = job.state;
  $("job").dataset.state = job.state;
}

function showProgress(progress) {
  if (!progress) return;
  const bar = $("progress-bar");
  if (progress.fraction !== null && progress.fraction !== undefined) bar.value = progress.fraction;
  const parts = [progress.phase, progress.message];
  if (progress.best !== null && progress.best !== undefined) parts.push(`best ${progress.best}`);
  for (const [k, v] of Object.entries(progress.stats || {})) parts.push(`${k} ${v}`);
  $("progress-text").textContent = parts.filter((p) => p !== "" && p !== null && p !== undefined).join(" · ");
}

// The progress chart: the job's figures over time as the service keeps them (GET
// /api/jobs/{id}/progress), fetched at most every CHART_MS while the job runs, once
// more when it ends, and when a past job is opened (#job/{id}).
const CHART_MS = 2000;
let chartTimer = null;

function scheduleChart(id) {
  if (chartTimer) return;
  chartTimer = setTimeout(() => { chartTimer = null; drawChart(id); }, CHART_MS);
}

async function drawChart(id) {
  const series = await api(`/api/jobs/${id}/progress`);
  if (!state.job || state.job.id !== id) return;
  $("progress-chart").replaceChildren(...progressCharts(series.points));
  $("progress-chart").dataset.points = series.points.length;
}

// #job/{id}: a job again, running or finished, after a restart too.
async function showJob(id) {
  let job;
  try { job = await api(`/api/jobs/${encodeURIComponent(id)}`); } catch (e) { $("form-error").textContent = e.message; return; }
  if (["done", "failed", "cancelled", "interrupted"].includes(job.state)) {
    resetJobPanel(job);
    finished(job);
  } else {
    follow(job);
  }
}

async function showRecentJobs() {
  const jobs = await api("/api/jobs?limit=20");
  $("recent-jobs").replaceChildren(...jobs.map((j) => el("li", {}, link(`#job/${j.id}`, `${j.puzzle} ${j.instance}`), ` ${j.method}: ${j.state}`)));
}

function figure(name, value) {
  const row = document.createElement("tr");
  const th = document.createElement("th");
  th.textContent = name;
  const td = document.createElement("td");
  td.textContent = value === null || value === undefined ? "—" : String(value);
  td.dataset.figure = name;
  row.append(th, td);
  $("figures").tBodies[0].append(row);
}

function finished(job) {
  showState(job);
  clearTimeout(chartTimer);
  chartTimer = null;
  drawChart(job.id).catch(() => {});
  $("run").disabled = false;
  $("cancel").disabled = true;
  $("progress-bar").value = 1;
  if (job.error) $("job-error").textContent = job.error;
  const result = job.result;
  if (!result) return;
  const valueName = state.puzzles.find((p) => p.name === job.puzzle).value_name;
  figure(valueName, result.value);
  figure("status", result.status);
  figure("bound", result.bound);
  figure("method", result.method);
  figure("seconds", result.stats && result.stats.seconds !== undefined ? Number(result.stats.seconds).toFixed(2) : null);
  const verdict = $("verdict");
  if (result.verified) {
    verdict.textContent = `verified: ${result.verdict.message || "the independent checker accepts it"}`;
    verdict.className = "ok";
    const img = $("picture");
    img.src = `${job.svg}?t=${Date.now()}`;
    img.hidden = false;
    api(`/api/jobs/${job.id}/answer`).then((answer) => {
      if (state.job && state.job.id === job.id) renderAnswer($("job-answer"), answer);
    }).catch((e) => { $("job-error").textContent = e.message; });
  } else {
    // a bounded search run to the end says why it has no answer (stats.no_answer)
    const none = (result.stats && result.stats.no_answer) || "no answer within the budget";
    verdict.textContent = result.solution === null ? none : `NOT verified: ${result.verdict ? result.verdict.message : ""}`;
    verdict.className = "bad";
  }
  $("solution").textContent = typeof result.solution === "string" ? result.solution : JSON.stringify(result.solution, null, 1);
}

async function cancel() {
  if (!state.job) return;
  $("cancel").disabled = true;
  try { await api(`/api/jobs/${state.job.id}`, { method: "DELETE" }); } catch (e) { $("job-error").textContent = e.message; }
}

// ------------------------------------------------------------------ records
async function loadRecords() {
  const rows = await api("/api/records");
  const body = $("records-table").tBodies[0];
  body.replaceChildren(...rows.map((r) => {
    const tr = document.createElement("tr");
    const published = r.published ? `${r.published.value}${r.published.proven ? " (proven)" : ""}` : "";
    const cells = [r.puzzle, r.instance, r.value, r.status, published, r.method, r.seconds === null ? "" : Number(r.seconds).toFixed(2)];
    tr.append(...cells.map((c) => { const td = document.createElement("td"); td.textContent = String(c); return td; }));
    return tr;
  }));
}

// ------------------------------------------------------------------ answer view
async function showAnswerView(puzzle, instance) {
  $("answer-title").textContent = `${puzzle} ${instance}`;
  $("answer-error").textContent = "";
  $("answer-view").dataset.state = "loading";
  const box = $("record-answer");
  box.hidden = true;
  try {
    const answer = await api(`/api/records/${encodeURIComponent(puzzle)}/answer?instance=${encodeURIComponent(instance)}`);
    $("answer-title").textContent = `${answer.puzzle} ${answer.instance}`;
    const body = $("answer-figures").tBodies[0];
    body.replaceChildren();
    const published = answer.published ? `${answer.published.value}${answer.published.proven ? " (proven)" : ""}` : null;
    const rows = [["value", answer.value], ["status", answer.status], ["published", published], ["method", answer.method],
                  ["seconds", answer.seconds === null ? null : Number(answer.seconds).toFixed(2)], ["source", answer.source]];
    for (const [name, value] of rows) {
      const tr = document.createElement("tr");
      tr.append(el("th", {}, name), el("td", { dataset: { figure: name } }, value === null || value === undefined ? "—" : String(value)));
      body.append(tr);
    }
    const verdict = $("answer-verdict");
    verdict.textContent = answer.verified ? `verified: ${answer.verdict.message}` : `NOT verified: ${answer.verdict ? answer.verdict.message : ""}`;
    verdict.className = answer.verified ? "ok" : "bad";
    $("answer-solve").href = solveLink(answer.puzzle, answer.instance);
    box.hidden = false;
    renderAnswer(box, answer);
    $("answer-view").dataset.state = "ready";
    markReady("answer");
  } catch (e) {
    $("answer-error").textContent = e.message;
    $("answer-view").dataset.state = "error";
  }
}

// #solve/{puzzle}/{instance}: the puzzle chosen, the instance from the catalog or pasted.
async function openInstance(puzzle, instance) {
  await state.ready;
  if (!state.puzzles.some((p) => p.name === puzzle)) return;
  if (!state.puzzle || state.puzzle.name !== puzzle) await choosePuzzle(puzzle);
  if ([...$("catalog").options].some((o) => o.value === instance)) {
    $("catalog").value = instance;
    $("source-catalog").checked = true;
    describeCatalogEntry();
  } else {
    $("instance-text").value = instance;
    $("source-custom").checked = true;
  }
  schedulePreview(0);
}

function route() {
  const [view, puzzle, ...rest] = location.hash.replace(/^#/, "").split("/");
  const instance = rest.length ? decodeURIComponent(rest.join("/")) : null;
  const shown = view === "records" || view === "answer" ? view : "solve";
  $("solve-view").hidden = shown !== "solve";
  $("records-view").hidden = shown !== "records";
  $("answer-view").hidden = shown !== "answer";
  if (shown === "records") {
    showDashboard(puzzle || DASHBOARD_NAMES[0]);
    if ($("stored").open) showStored();
  } else if (shown === "answer" && puzzle && instance) {
    showAnswerView(decodeURIComponent(puzzle), instance);
  } else if (shown === "solve" && view === "job" && puzzle) {
    showJob(decodeURIComponent(puzzle));
  } else if (shown === "solve" && puzzle && instance) {
    openInstance(decodeURIComponent(puzzle), instance);
  } else if (shown === "solve") {
    schedulePreview(0);
  }
}

function showStored() {
  loadRecords().catch((e) => { $("records-table").tBodies[0].textContent = e.message; });
}

// ------------------------------------------------------------------ start
// A new puzzle starts from its catalog (text pasted for the last one would not parse).
$("puzzle").addEventListener("change", (e) => { $("source-catalog").checked = true; choosePuzzle(e.target.value); });
$("method").addEventListener("change", chooseMethod);
$("catalog").addEventListener("change", () => { $("source-catalog").checked = true; describeCatalogEntry(); schedulePreview(0); });
$("instance-text").addEventListener("input", () => { $("source-custom").checked = true; schedulePreview(); });
$("instance-file").addEventListener("change", () => { $("source-custom").checked = true; schedulePreview(0); });
for (const radio of [$("source-catalog"), $("source-custom")]) radio.addEventListener("change", () => schedulePreview(0));
$("job-form").addEventListener("submit", run);
$("cancel").addEventListener("click", cancel);
$("stored").addEventListener("toggle", () => { if ($("stored").open) showStored(); });
$("recent").addEventListener("toggle", () => { if ($("recent").open) showRecentJobs().catch((e) => { $("recent-jobs").textContent = e.message; }); });
window.addEventListener("hashchange", route);
state.ready = loadPuzzles().catch((e) => { $("form-error").textContent = e.message; });
route();

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

function follow(job) {
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
  $("progress-bar").removeAttribute("value");
  $("progress-text").textContent = "";
  showState(job);
  $("run").disabled = true;
  $("cancel").disabled = false;
  const source = new EventSource(`/api/jobs/${job.id}/events`);
  state.events = source;
  source.addEventListener("state", (e) => showState(JSON.parse(e.data).job));
  source.addEventListener("progress", (e) => showProgress(JSON.parse(e.data).progress));
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
  } else {
    verdict.textContent = result.solution === null ? "no answer within the budget" : `NOT verified: ${result.verdict ? result.verdict.message : ""}`;
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

function route() {
  const records = location.hash === "#records";
  $("solve-view").hidden = records;
  $("records-view").hidden = !records;
  if (records) loadRecords().catch((e) => { $("records-table").tBodies[0].textContent = e.message; });
}

// ------------------------------------------------------------------ start
$("puzzle").addEventListener("change", (e) => choosePuzzle(e.target.value));
$("method").addEventListener("change", chooseMethod);
$("catalog").addEventListener("change", () => { $("source-catalog").checked = true; describeCatalogEntry(); });
$("instance-text").addEventListener("input", () => { $("source-custom").checked = true; });
$("instance-file").addEventListener("change", () => { $("source-custom").checked = true; });
$("job-form").addEventListener("submit", run);
$("cancel").addEventListener("click", cancel);
window.addEventListener("hashchange", route);
route();
loadPuzzles().catch((e) => { $("form-error").textContent = e.message; });

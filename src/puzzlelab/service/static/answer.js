// A verified answer as the page shows it (GET /api/jobs/{id}/answer or
// /api/records/{puzzle}/answer): its picture, the exports in the field's formats, the
// text drawing, and for a coin puzzle a step-through of the moves (first, back,
// play/pause, next, last, a slider, arrow keys), drawn here as SVG.
"use strict";

const STEP_MS = 600;

function boardSvg(boards, step, cell = 30) {
  const { width: w, height: h, start, target, moves } = boards;
  const coins = new Set(start.map(([x, y]) => `${x},${y}`));
  for (let i = 0; i < step; i++) {
    const [x1, y1, x2, y2] = moves[i];
    coins.delete(`${x1},${y1}`);
    coins.add(`${x2},${y2}`);
  }
  const goal = new Set(target.map(([x, y]) => `${x},${y}`));
  const last = step > 0 ? moves[step - 1] : null;
  const svg = svgEl("svg", { width: w * cell + 2, height: h * cell + 2, viewBox: `-1 -1 ${w * cell + 2} ${h * cell + 2}`, class: "coin-board", role: "img" });
  svg.append(svgEl("title", {}, `board after move ${step} of ${moves.length}`));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = last && last[0] === x && last[1] === y, to = last && last[2] === x && last[3] === y;
      svg.append(svgEl("rect", { x: x * cell, y: y * cell, width: cell, height: cell, stroke: "#ddd",
                                 fill: from ? "#fde0e0" : to ? "#e0f0e0" : "#fafafa", class: from ? "from" : to ? "to" : null }));
      if (goal.has(`${x},${y}`)) {
        svg.append(svgEl("circle", { cx: (x + 0.5) * cell, cy: (y + 0.5) * cell, r: cell * 0.45, fill: "none", stroke: "#4477aa", "stroke-width": 2, class: "goal" }));
      }
      if (coins.has(`${x},${y}`)) {
        svg.append(svgEl("circle", { cx: (x + 0.5) * cell, cy: (y + 0.5) * cell, r: cell * 0.38, fill: "#ccbb44", stroke: "#8a7a1a", class: "coin" }));
      }
    }
  }
  return svg;
}

// The step-through of a coin solution in `box`; returns a function that stops it.
function coinStepper(box, boards) {
  let step = 0, timer = null;
  const where = el("span", { class: "where" });
  const slider = el("input", { type: "range", min: 0, max: boards.moves.length, value: 0, "aria-label": "move" });
  const button = (label, action, cls) => { const b = el("button", { type: "button", class: `step ${cls}` }, label); b.addEventListener("click", action); return b; };
  const picture = el("div", { class: "board" });
  const stop = () => { if (timer) { clearInterval(timer); timer = null; play.textContent = "play ▶"; } };
  const go = (n) => {
    step = Math.max(0, Math.min(boards.moves.length, n));
    picture.replaceChildren(boardSvg(boards, step));
    slider.value = step;
    const m = step > 0 ? boards.moves[step - 1] : null;
    where.textContent = `move ${step} of ${boards.moves.length}` + (m ? `: (${m[0]},${m[1]}) → (${m[2]},${m[3]})` : "");
    box.dataset.step = step;
  };
  const play = button("play ▶", () => {
    if (timer) return stop();
    if (step >= boards.moves.length) go(0);
    play.textContent = "pause ‖";
    timer = setInterval(() => { if (step >= boards.moves.length) stop(); else go(step + 1); }, STEP_MS);
  }, "play");
  const controls = el("div", { class: "stepper-controls" },
    button("« start", () => { stop(); go(0); }, "first"), button("‹ back", () => { stop(); go(step - 1); }, "prev"), play,
    button("next ›", () => { stop(); go(step + 1); }, "next"), button("end »", () => { stop(); go(boards.moves.length); }, "last"), slider, where);
  slider.addEventListener("input", () => { stop(); go(Number(slider.value)); });
  box.tabIndex = 0;
  box.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") { stop(); go(step + 1); }
    if (e.key === "ArrowLeft") { stop(); go(step - 1); }
  });
  box.replaceChildren(el("h4", {}, "Step through the moves"), controls, picture,
    el("p", { class: "hint" }, "Rings: the target's cells. A move lifts one coin onto an empty cell touching at least two other coins."));
  box.hidden = false;
  go(0);
  return stop;
}

let stopStepper = () => {};

// Fill `box` (with children .answer-picture, .exports, .stepper, .answer-text) from an AnswerView.
function renderAnswer(box, answer) {
  stopStepper();
  const picture = box.querySelector(".answer-picture");
  picture.src = `${answer.svg}${answer.svg.includes("?") ? "&" : "?"}t=${Date.now()}`;
  picture.hidden = false;
  const exports = box.querySelector(".exports");
  exports.replaceChildren(el("span", { class: "hint" }, "Export: "), ...answer.exports.map((e) =>
    el("a", { href: e.url, download: e.filename, class: "export", dataset: { format: e.format }, title: e.media_type }, e.label)));
  const stepper = box.querySelector(".stepper");
  if (answer.steps && answer.steps.moves.length) stopStepper = coinStepper(stepper, answer.steps);
  else { stepper.hidden = true; stepper.replaceChildren(); stopStepper = () => {}; }
  const text = box.querySelector(".answer-text");
  text.textContent = answer.text || "";
  text.closest("details").hidden = !answer.text;
}

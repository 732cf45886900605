// snapsolve's page: send a photo to POST /api/solve, show the answer on it, step through the solution,
// check the player's entries, correct the read puzzle and solve again. No build step, no dependencies.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const cellName = (c) => `r${Math.floor(c / 9) + 1}c${(c % 9) + 1}`;
const digits = (text) => Array.from(text || "", (ch) => (ch === "." ? 0 : Number(ch)));

const state = {
  result: null,  // the last answer of /api/solve
  grid: null,    // its main grid
  givens: [],    // 81 digits, as corrected by the player
  entries: [],   // 81 digits written by hand
  edited: new Set(),
  quads: null,   // 81 cell quadrilaterals in the photo (pixels), kept across "solve again"
  size: null,    // [width, height] of the photo in pixels
  image: null,   // data URL: the photo with the answers drawn by the server
  photo: null,   // data URL: the plain photo
  step: -1,      // -1: the whole answer; k: steps 0..k shown, k the current one
  checking: false,
};

function showError(message) {
  const el = $("error");
  el.textContent = message || "";
  el.hidden = !message;
}

function busy(on, text) {
  $("progress").hidden = !on;
  if (text) $("progress-text").textContent = text;
  for (const id of ["camera", "file", "resolve", "prev", "next", "check"]) $(id).disabled = on;
}

// ---- talking to the server ---------------------------------------------------------------------

function post(body, contentType) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/solve");
    xhr.responseType = "json";
    if (contentType) xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      $("upload-bar").value = e.loaded / e.total;
      if (e.loaded >= e.total) $("progress-text").textContent = "Reading the puzzle…";
    };
    xhr.onload = () => {
      const data = xhr.response || {};
      if (xhr.status === 200) resolve(data);
      else reject(new Error(data.detail || `the server answered ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error("no answer from the server: is it still running?"));
    xhr.send(body);
  });
}

async function sendPhoto(file) {
  if (!file) return;
  showError("");
  $("upload-bar").value = 0;
  busy(true, "Sending the photo…");
  const form = new FormData();
  form.append("image", file, file.name || "photo.jpg");
  form.append("explain", "true");
  form.append("photo", "true");
  try {
    const data = await post(form);
    state.quads = null;
    state.size = data.image_size || null;
    state.image = data.image ? "data:image/jpeg;base64," + data.image : null;
    state.photo = data.photo ? "data:image/jpeg;base64," + data.photo : null;
    show(data);
  } catch (err) {
    showError(err.message);
  } finally {
    busy(false);
    $("camera").value = "";
    $("file").value = "";
  }
}

async function solveAgain() {
  showError("");
  busy(true, "Solving…");
  const text = state.givens.map((d) => d || ".").join("") + " " + state.entries.map((d) => d || ".").join("");
  try {
    const data = await post(JSON.stringify({ puzzle: text, explain: true }), "application/json");
    state.image = null;  // the server's drawing shows the old reading: draw the new answer on the plain photo
    show(data, true);
  } catch (err) {
    showError(err.message);
  } finally {
    busy(false);
  }
}

// ---- showing an answer -------------------------------------------------------------------------

function show(data, keepPhoto) {
  state.result = data;
  const grid = (data.grids || [])[0] || null;
  state.grid = grid;
  state.step = -1;
  state.checking = false;
  $("check-text").textContent = "";
  if (!grid) {
    $("result").hidden = true;
    showError(data.error || "no Sudoku grid found in the photo");
    return;
  }
  if (grid.cell_quads) state.quads = grid.cell_quads;
  else if (!keepPhoto) state.quads = null;
  state.givens = digits(grid.givens);
  state.entries = digits(grid.entries);
  if (!keepPhoto) state.edited = new Set();  // solved again: the corrected cells stay marked
  $("result").hidden = false;
  if (data.error) showError(data.error + (grid.status !== "solved" ? ". Correct the grid below and solve again." : ""));
  const summary = $("summary");
  summary.replaceChildren();
  if (grid.solution) {
    summary.append("Level ");
    const level = document.createElement("strong");
    level.id = "level";
    level.textContent = grid.level;
    summary.append(level, `, score ${grid.score}`, grid.needs_search ? " (finished by search)" : "");
    const p = grid.progress;
    if (p && p.entered) summary.append(` · ${p.entered} of ${p.to_fill} cells filled in`);
  } else {
    summary.textContent = `Not solved: ${grid.status.replace(/_/g, " ")}`;
  }
  buildGrid();
  render();
  $("figure").hidden = !(state.image || state.photo);
}

function steps() {
  return (state.grid && state.grid.steps) || [];
}

function render() {
  const grid = state.grid;
  const list = steps();
  const stepping = state.step >= 0;
  $("prev").disabled = !stepping;
  $("next").disabled = !grid || !grid.solution || state.step >= list.length - 1;
  if (!stepping) {
    const left = list.length;
    $("step-text").textContent = !grid || !grid.solution ? "" :
      grid.mistakes && grid.mistakes.length ? "There are mistakes among the entries: check them first." :
      left ? `${left} logical steps from here. "Next step" shows them one at a time.` : "Nothing left to deduce.";
  } else {
    const s = list[state.step];
    $("step-text").textContent = `Step ${state.step + 1} of ${list.length}: ${s.text}`;
  }
  renderGrid();
  renderPhoto();
}

// Digits placed by the steps shown so far: cell -> digit.
function placedSoFar() {
  const placed = new Map();
  steps().slice(0, state.step + 1).forEach((s) => s.placements.forEach(([c, d]) => placed.set(c, d)));
  return placed;
}

// ---- the editable grid -------------------------------------------------------------------------

function buildGrid() {
  const box = $("grid");
  if (box.children.length === 81) return;
  for (let c = 0; c < 81; c++) {
    const input = document.createElement("input");
    input.type = "text";
    input.inputMode = "numeric";
    input.maxLength = 1;
    input.autocomplete = "off";
    input.dataset.cell = c;
    input.className = `r${Math.floor(c / 9)} c${c % 9}`;
    input.setAttribute("aria-label", cellName(c));
    input.addEventListener("input", () => edit(c, input));
    box.append(input);
  }
}

function edit(c, input) {
  const ch = input.value.replace(/[^1-9]/g, "").slice(-1);
  state.givens[c] = ch ? Number(ch) : 0;
  state.entries[c] = 0;  // a corrected cell is printed: what was read as written goes
  state.edited.add(c);
  input.value = ch;
  $("step-text").textContent = "Edited: press \"Solve again\" to solve the corrected puzzle.";
  renderGridCell(c, input, placedSoFar(), currentStep());
}

function currentStep() {
  return state.step >= 0 ? steps()[state.step] : null;
}

function renderGrid() {
  const placed = placedSoFar();
  const step = currentStep();
  document.querySelectorAll("#grid input").forEach((input, c) => renderGridCell(c, input, placed, step));
}

function renderGridCell(c, input, placed, step) {
  const grid = state.grid;
  const given = state.givens[c], entry = state.entries[c];
  input.value = given || entry || "";
  let hint = "";
  if (!given && !entry && grid && grid.solution) {
    if (state.step >= 0) hint = placed.has(c) ? String(placed.get(c)) : "";
    else if ($("show-solution").checked) hint = grid.solution[c];
  }
  input.placeholder = hint;
  const mistake = state.checking && (grid.mistakes || []).some((m) => m.cell === c);
  input.classList.toggle("given", !!given);
  input.classList.toggle("entry", !given && !!entry);
  input.classList.toggle("edited", state.edited.has(c));
  input.classList.toggle("hl", !!step && (step.cells || []).includes(c));
  input.classList.toggle("now", !!step && step.placements.some(([p]) => p === c));
  input.classList.toggle("mistake", mistake);
  input.title = mistake ? `${cellName(c)}: the ${entry} is wrong` : cellName(c);
}

// ---- drawing on the photo ----------------------------------------------------------------------

function centre(quad) {
  return [quad.reduce((a, p) => a + p[0], 0) / 4, quad.reduce((a, p) => a + p[1], 0) / 4];
}

function cellHeight(quad) {
  return (Math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1]) +
          Math.hypot(quad[2][0] - quad[1][0], quad[2][1] - quad[1][1])) / 2;
}

function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function digitAt(svg, cell, digit, colour, scale, dx = 0, dy = 0) {
  const quad = state.quads[cell];
  const [x, y] = centre(quad);
  const h = cellHeight(quad);
  svg.append(svgEl("text", {
    x: x + dx * h, y: y + dy * h, "font-size": h * scale, fill: colour, "text-anchor": "middle",
    "dominant-baseline": "central", "font-family": "system-ui, sans-serif", "font-weight": "700",
    class: "digit",
  }, String(digit)));
}

function renderPhoto() {
  const svg = $("overlay");
  svg.replaceChildren();
  const grid = state.grid;
  const stepping = state.step >= 0;
  // The server's drawing (the answers, in the photo's own perspective) unless stepping or corrected.
  const useImage = state.image && !stepping && $("show-solution").checked;
  const src = useImage ? state.image : (state.photo || state.image);
  if (src && $("photo").getAttribute("src") !== src) $("photo").src = src;
  if (!state.quads || !state.size || !grid) return;
  svg.setAttribute("viewBox", `0 0 ${state.size[0]} ${state.size[1]}`);
  if (!stepping && !useImage && grid.solution && $("show-solution").checked) {
    for (let c = 0; c < 81; c++) {
      if (!state.givens[c] && !state.entries[c]) digitAt(svg, c, grid.solution[c], "#1d4ed8", 0.7);
    }
  }
  if (stepping) {
    const step = currentStep();
    for (const c of step.cells || []) {
      svg.append(svgEl("polygon", { points: state.quads[c].map((p) => p.join(",")).join(" "),
                                    fill: "#facc15", "fill-opacity": "0.35", stroke: "#ca8a04", "stroke-width": 2 }));
    }
    const before = new Map();
    steps().slice(0, state.step).forEach((s) => s.placements.forEach(([c, d]) => before.set(c, d)));
    before.forEach((d, c) => digitAt(svg, c, d, "#1d4ed8", 0.6));
    step.placements.forEach(([c, d]) => digitAt(svg, c, d, "#15803d", 0.75));
    step.eliminations.forEach(([c, d]) => {
      const dx = (((d - 1) % 3) - 1) * 0.3, dy = (Math.floor((d - 1) / 3) - 1) * 0.3;
      digitAt(svg, c, d, "#dc2626", 0.3, dx, dy);
      const [x, y] = centre(state.quads[c]);
      const h = cellHeight(state.quads[c]);
      svg.append(svgEl("line", { x1: x + (dx - 0.12) * h, y1: y + (dy + 0.12) * h, x2: x + (dx + 0.12) * h,
                                 y2: y + (dy - 0.12) * h, stroke: "#dc2626", "stroke-width": h * 0.04 }));
    });
  }
  if (state.checking) {
    for (const m of grid.mistakes || []) {
      const [x, y] = centre(state.quads[m.cell]);
      svg.append(svgEl("circle", { cx: x, cy: y, r: cellHeight(state.quads[m.cell]) * 0.48, fill: "none",
                                   stroke: "#dc2626", "stroke-width": cellHeight(state.quads[m.cell]) * 0.08 }));
    }
  }
}

// ---- buttons -----------------------------------------------------------------------------------

function checkEntries() {
  const grid = state.grid;
  if (!grid) return;
  state.checking = true;
  const mistakes = grid.mistakes || [];
  const p = grid.progress || { entered: 0, to_fill: 0 };
  let text;
  if (!grid.solution) text = "The puzzle is not solved yet, so the entries cannot be checked.";
  else if (!p.entered) text = "Nothing is written in this puzzle yet: no entries to check.";
  else if (!mistakes.length) text = `${p.entered} of ${p.to_fill} cells filled in, no mistakes.`;
  else text = `${mistakes.length} mistake${mistakes.length > 1 ? "s" : ""}: ` +
    mistakes.map((m) => `${cellName(m.cell)} has ${m.entered}, the solution has ${m.solution}`).join("; ") + ".";
  $("check-text").textContent = text;
  render();
}

async function makePdf() {
  const level = $("gen-level").value, count = $("gen-count").value;
  $("gen").disabled = true;
  $("gen-text").textContent = `Making ${count} ${level} puzzle${count > 1 ? "s" : ""}…`;
  try {
    const response = await fetch(`/api/generate?level=${encodeURIComponent(level)}&count=${count}`);
    if (!response.ok) throw new Error((await response.json()).detail || `the server answered ${response.status}`);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = `sudoku-${level}.pdf`;
    link.textContent = `sudoku-${level}.pdf`;
    $("gen-text").replaceChildren("Ready: ", link, " (open it to print).");
    link.click();
  } catch (err) {
    $("gen-text").textContent = "Could not make the puzzles: " + err.message;
  } finally {
    $("gen").disabled = false;
  }
}

$("camera").addEventListener("change", (e) => sendPhoto(e.target.files[0]));
$("file").addEventListener("change", (e) => sendPhoto(e.target.files[0]));
$("next").addEventListener("click", () => { state.step = Math.min(state.step + 1, steps().length - 1); render(); });
$("prev").addEventListener("click", () => { state.step = Math.max(state.step - 1, -1); render(); });
$("check").addEventListener("click", checkEntries);
$("show-solution").addEventListener("change", render);
$("resolve").addEventListener("click", solveAgain);
$("gen").addEventListener("click", makePdf);

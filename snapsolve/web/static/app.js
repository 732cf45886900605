// snapsolve's page: send a photo to POST /api/solve, show the answer on it, step through the solution,
// check the player's entries, correct the read puzzle and solve again. No build step, no dependencies.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const cellName = (c) => `r${Math.floor(c / 9) + 1}c${(c % 9) + 1}`;
const digits = (text) => Array.from(text || "", (ch) => (ch === "." ? 0 : Number(ch)));
// A digit in a cell with pencilled candidates is drawn small, its centre at SMALL_AT of the cell's width and height
// (the lower right, clear of the candidates) and SMALL_DIGIT of the full size, as the command's image draws it
// (vision.overlay.draw_digits).
const SMALL_AT = 0.68, SMALL_DIGIT = 0.4 / 0.55;

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
  kind: new Map(),     // cell -> "printed" | "hand": the kind the player chose or confirmed (issue 24)
  unclear: new Map(),  // cell -> {read, alternatives}: handwritten digits not read for sure, not yet confirmed
  selected: null,      // the cell last tapped in the grid
  typed: false,        // true when the puzzle is typed in (no photo read): a new digit is printed
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
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    if (contentType) xhr.setRequestHeader("Content-Type", contentType);
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable) return;
      $("upload-bar").value = e.loaded / e.total;
      if (e.loaded >= e.total) $("progress-text").textContent = "Reading the puzzle…";
    };
    xhr.onload = () => {
      const data = xhr.response || {};
      if (xhr.status === 200) resolve(data);
      else reject(Object.assign(new Error(data.detail || `the server answered ${xhr.status}`), { data }));
    };
    xhr.onerror = () => reject(new Error("no answer from the server: is it still running?"));
    xhr.send(body);
  });
}

async function sendPhoto(file) {
  if (!file) return;
  showError("");
  showNoGrid(false);
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
    if (isNoGrid(err.data)) showNoGrid(true);
    else showError(err.message);
  } finally {
    busy(false);
    $("camera").value = "";
    $("file").value = "";
  }
}

async function solveAgain() {
  showError("");
  busy(true, "Solving…");
  const text = state.givens.map((d) => d || ".").join("") + " " + sentEntries().map((d) => d || ".").join("");
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

// The grid the page shows: of a photo's grids (listed in reading order), the largest; a puzzle typed in has one.
function mainGrid(grids) {
  const area = (g) => {
    const q = g.corners;
    if (!q) return 0;
    return Math.abs(q.reduce((a, p, i) => a + p[0] * q[(i + 1) % 4][1] - q[(i + 1) % 4][0] * p[1], 0)) / 2;
  };
  return (grids || []).reduce((best, g) => (!best || area(g) > area(best) ? g : best), null);
}

function show(data, keepPhoto) {
  state.result = data;
  const grid = mainGrid(data.grids);
  state.grid = grid;
  state.step = -1;
  state.checking = false;
  $("check-text").textContent = "";
  if (!grid) {
    if (keepPhoto) return keepGridToCorrect(data);
    $("result").hidden = true;
    if (!keepPhoto && isNoGrid(data)) showNoGrid(true);
    else showError(data.error || "no Sudoku grid found in the photo");
    return;
  }
  if (grid.cell_quads) state.quads = grid.cell_quads;
  else if (!keepPhoto) state.quads = null;
  state.givens = digits(grid.givens);
  state.entries = digits(grid.entries);
  if (!keepPhoto) state.edited = new Set();  // solved again: the corrected cells stay marked
  takeUnclear(grid, keepPhoto);
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
    if (allRight(grid)) summary.append(` · solved: all ${p.entries} entries are right`);
    else if (p && p.entries) summary.append(` · ${p.entries} of ${p.to_fill} cells filled in`);
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
      left ? `${stepsInWords(list)} from here. "Next step" shows them one at a time.` : "Nothing left to deduce.";
    if (grid && grid.solution) $("step-text").textContent += unclearNote(grid);
  } else {
    const s = list[state.step];
    $("step-text").textContent = `Step ${state.step + 1} of ${list.length}: ${stepText(s)}`;
  }
  renderGrid();
  renderPhoto();
}

// "12 logical steps", and where logic stops short of the end (the last step is the exact search's): "then the search".
function stepsInWords(list) {
  const search = list.length && list[list.length - 1].technique === "brute_force";
  const logical = list.length - (search ? 1 : 0);
  return `${logical} logical step${logical === 1 ? "" : "s"}${search ? ", then the exact search," : ""}`;
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
  const kind = kindOf(c);  // a corrected cell keeps its kind (as read, or as chosen below the grid)
  state.givens[c] = ch && kind === "printed" ? Number(ch) : 0;
  state.entries[c] = ch && kind === "hand" ? Number(ch) : 0;
  state.kind.set(c, kind);
  state.unclear.delete(c);
  state.edited.add(c);
  input.value = ch;
  $("step-text").textContent = "Edited: press \"Solve again\" to solve the corrected puzzle.";
  renderGridCell(c, input, placedSoFar(), currentStep());
  showCellTools();
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
  markUnclear(c, input);
}

// ---- drawing on the photo ----------------------------------------------------------------------

function centre(quad) {
  return [quad.reduce((a, p) => a + p[0], 0) / 4, quad.reduce((a, p) => a + p[1], 0) / 4];
}

function cellHeight(quad) {
  return (Math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1]) +
          Math.hypot(quad[2][0] - quad[1][0], quad[2][1] - quad[1][1])) / 2;
}

// Whether the player finished the puzzle and every entry is read right (the hint's "solved": nothing to do).
function allRight(grid) {
  const p = grid.progress;
  return !!(grid.solution && p && p.entries && p.entries === p.to_fill && !(grid.mistakes || []).length &&
            !(grid.unclear_entries || []).length);
}

// The corner of a ringed cell where its right digit goes, clear of the ring and of the digit written: the first of
// top right, top left, bottom right, bottom left whose ruled lines' crossing no other right digit has taken, and
// none of `busy`'s other marks is drawn at unless all are (the server's own drawing chooses by the ink the photo
// shows there, vision.overlay.free_corners). Returns the index of that corner in the cell's quad (TL TR BR BL)
// and adds its crossing to `taken`.
const RIGHT_CORNERS = [[1, 0, 1], [0, 0, 0], [1, 1, 2], [0, 1, 3]];  // column step, row step, quad index
function freeCorner(cell, taken, busy = new Set()) {
  const r = Math.floor(cell / 9), c = cell % 9;
  for (const avoid of [busy, new Set()]) {
    for (const [dx, dy, k] of RIGHT_CORNERS) {
      const crossing = `${r + dy},${c + dx}`;
      if (!taken.has(crossing) && !avoid.has(crossing)) {
        taken.add(crossing);
        return k;
      }
    }
  }
  return 1;
}

// The crossings ("row,column" of the ruled lines) where other marks are drawn: a pencilled cell's small digit (its
// lower right) and an unclear entry's question (its upper right; with `whole`, all four: a ring round the cell).
function busyCrossings(grid, unclearCells, whole) {
  const busy = new Set();
  const add = (cell, dx, dy) => busy.add(`${Math.floor(cell / 9) + dy},${cell % 9 + dx}`);
  for (const m of grid.pencil_marks || []) add(m.cell, 1, 1);
  for (const cell of unclearCells) {
    for (const [dx, dy] of whole ? [[0, 0], [1, 0], [0, 1], [1, 1]] : [[1, 0]]) add(cell, dx, dy);
  }
  return busy;
}

function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// A point of a cell's quadrilateral: u along its top edge, v along its left edge (0..1 each; bilinear).
function pointIn(quad, u, v) {
  const [tl, tr, br, bl] = quad;
  return [0, 1].map((k) => (1 - u) * (1 - v) * tl[k] + u * (1 - v) * tr[k] + u * v * br[k] + (1 - u) * v * bl[k]);
}

function pencilCells() {
  return new Set(((state.grid && state.grid.pencil_marks) || []).map((m) => m.cell));
}

// A digit in its cell: centred (`dx`, `dy` in cell heights move it), or with `small` in the lower right, smaller,
// clear of the player's pencilled candidates.
function digitAt(svg, cell, digit, colour, scale, dx = 0, dy = 0, small = false) {
  const quad = state.quads[cell];
  const [x, y] = small ? pointIn(quad, SMALL_AT, SMALL_AT) : centre(quad);
  const h = cellHeight(quad);
  svg.append(svgEl("text", {
    x: x + dx * h, y: y + dy * h, "font-size": h * scale * (small ? SMALL_DIGIT : 1), fill: colour,
    "text-anchor": "middle", "dominant-baseline": "central", "font-family": "system-ui, sans-serif",
    "font-weight": "700", class: small ? "digit small" : "digit", "data-cell": cell,
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
  const pencil = pencilCells();
  if (!stepping && !useImage && grid.solution && $("show-solution").checked) {
    for (let c = 0; c < 81; c++) {
      if (!state.givens[c] && !state.entries[c]) digitAt(svg, c, grid.solution[c], "#1d4ed8", 0.7, 0, 0, pencil.has(c));
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
    before.forEach((d, c) => digitAt(svg, c, d, "#1d4ed8", 0.6, 0, 0, pencil.has(c)));
    step.placements.forEach(([c, d]) => digitAt(svg, c, d, "#15803d", 0.75, 0, 0, pencil.has(c)));
    step.eliminations.forEach(([c, d]) => {
      const dx = (((d - 1) % 3) - 1) * 0.3, dy = (Math.floor((d - 1) / 3) - 1) * 0.3;
      digitAt(svg, c, d, "#dc2626", 0.3, dx, dy);
      const [x, y] = centre(state.quads[c]);
      const h = cellHeight(state.quads[c]);
      svg.append(svgEl("line", { x1: x + (dx - 0.12) * h, y1: y + (dy + 0.12) * h, x2: x + (dx + 0.12) * h,
                                 y2: y + (dy - 0.12) * h, stroke: "#dc2626", "stroke-width": h * 0.04 }));
    });
  }
  if (state.checking && !useImage) {  // the server's image rings them itself, each with its right digit
    const taken = new Set(), busy = busyCrossings(grid, state.unclear.keys(), true);
    for (const m of grid.mistakes || []) {
      const quad = state.quads[m.cell];
      const [x, y] = centre(quad);
      const h = cellHeight(quad);
      svg.append(svgEl("circle", { cx: x, cy: y, r: h * 0.4, fill: "none", stroke: "#dc2626", "stroke-width": h * 0.07,
                                   class: "mistake" }));
      // the right digit half a cell tall, beyond the ring, over the corner of the cell that freeCorner chooses
      const [px, py] = quad[freeCorner(m.cell, taken, busy)];
      svg.append(svgEl("text", {
        x: px + (px - x) * 0.18, y: py + (py - y) * 0.18, "font-size": h * 0.64, fill: "#dc2626", stroke: "#fff",
        "stroke-width": h * 0.1, "paint-order": "stroke", "text-anchor": "middle", "dominant-baseline": "central",
        "font-family": "system-ui, sans-serif", "font-weight": "700", class: "right-digit",
      }, String(m.solution)));
    }
  }
  drawUnclear(svg);
}

// ---- issue 24: the kind of a corrected cell, unclear handwriting, no grid found ---------------

// What a cell holds or will hold: "printed" or "hand". A cell keeps the kind it was read as (or that the player
// chose); a cell read as empty becomes handwritten, since the printed digits are rarely missed and the player's
// pen often is; in a puzzle typed in (no photo read) a new digit is printed.
function kindOf(c) {
  if (state.kind.has(c)) return state.kind.get(c);
  if (state.givens[c]) return "printed";
  if (state.entries[c]) return "hand";
  return state.typed ? "printed" : "hand";
}

// The entries sent to solve again: an unclear digit not yet confirmed is left out, so that it is never checked
// (nor blocks the steps) as if it had been read for sure.
function sentEntries() {
  return state.entries.map((d, c) => (state.unclear.has(c) ? 0 : d));
}

// The unclear entries of a new answer (`unclear_entries`, missing in older results: none). Solving again keeps
// the ones not yet confirmed (the server cannot know them from the puzzle text) and shows their digit as read.
function takeUnclear(grid, keep) {
  if (!keep) {
    state.unclear = new Map();
    state.kind = new Map();
    state.typed = false;
    state.selected = null;
  }
  for (const u of grid.unclear_entries || []) {
    state.unclear.set(u.cell, { read: u.read, alternatives: (u.alternatives || []).filter((d) => d !== u.read) });
  }
  state.unclear.forEach((u, c) => {
    if (state.givens[c]) state.unclear.delete(c);
    else if (!state.entries[c]) state.entries[c] = u.read;
  });
  showCellTools();
}

const withArticle = (d) => (d === 8 ? "an 8" : `a ${d}`);

function unclearOptions(u) {
  return [u.read, ...u.alternatives.filter((d, i, all) => d !== u.read && all.indexOf(d) === i)];
}

// "r2c7: is this an 8 or a 9?"
function unclearQuestion(c) {
  const names = unclearOptions(state.unclear.get(c)).map(withArticle);
  const last = names.pop();
  return `${cellName(c)}: is this ${names.length ? names.join(", ") + " or " : ""}${last}?`;
}

function unclearQuestions() {
  const cells = [...state.unclear.keys()].sort((a, b) => a - b);
  return cells.map(unclearQuestion).join(" ") + ` Tap the amber cell${cells.length > 1 ? "s" : ""} to answer.`;
}

function unclearNote(grid) {
  if (!state.unclear.size || (grid.mistakes && grid.mistakes.length)) return "";
  const n = state.unclear.size;
  return ` ${n} handwritten digit${n > 1 ? "s were" : " was"} not read for sure (amber): tap to say what is written.`;
}

// A step or hint that is a question (technique "question": an unclear entry the next step depends on).
function stepText(s) {
  if (s.technique !== "question") return s.text;
  return `${s.text.trim().replace(/[.?]*$/, "?")} (a question, not a mistake: tap the amber cell to answer)`;
}

function markUnclear(c, input) {
  const unclear = state.unclear.has(c);
  input.classList.toggle("unclear", unclear);
  input.readOnly = unclear;  // tapping asks which digit it is instead of opening the keyboard
  if (unclear) input.title = unclearQuestion(c);
  input.setAttribute("aria-label", unclear ? `${cellName(c)}, unclear: ${unclearQuestion(c).split(": ")[1]}` : cellName(c));
}

function drawUnclear(svg) {
  if (!state.quads || !state.size || !state.grid) return;
  state.unclear.forEach((u, c) => {
    const [x, y] = centre(state.quads[c]);
    const h = cellHeight(state.quads[c]);
    svg.append(svgEl("circle", { cx: x, cy: y, r: h * 0.48, fill: "none", stroke: "#f59e0b", "stroke-width": h * 0.08,
                                 "stroke-dasharray": `${h * 0.2} ${h * 0.12}`, class: "unclear" }));
  });
}

function selectCell(c) {
  state.selected = c;
  showCellTools();
}

// Below the grid, for the cell last tapped: the question when its digit is unclear, else the kind toggle.
function showCellTools(allDigits) {
  const c = state.selected;
  const inGrid = c !== null && !$("result").hidden;
  const unclear = inGrid && state.unclear.get(c);
  $("confirm").hidden = !unclear;
  if (unclear) {
    $("confirm-text").textContent = unclearQuestion(c);
    const offered = unclearOptions(unclear);
    const choices = allDigits ? [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((d) => !offered.includes(d)) : offered;
    const buttons = choices.map((d) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = String(d);
      b.setAttribute("aria-label", `It is ${withArticle(d)}`);
      b.addEventListener("click", () => confirmEntry(c, d));
      return b;
    });
    if (!allDigits) {
      const other = document.createElement("button");
      other.type = "button";
      other.textContent = "Other…";
      other.setAttribute("aria-label", "It is another digit");
      other.addEventListener("click", () => showCellTools(true));
      buttons.push(other);
    }
    $("confirm-choices").replaceChildren(...buttons);
  }
  const digit = inGrid && !unclear && (state.givens[c] || state.entries[c]);
  $("kind").hidden = !digit;
  if (digit) {
    $("kind-label").textContent = `${cellName(c)}: this ${digit} is`;
    $("kind-hand").checked = !state.givens[c];
    $("kind-printed").checked = !!state.givens[c];
  }
}

// The player says a cell's digit is printed or written by hand: it moves between the givens and the entries.
function setKind(kind) {
  const c = state.selected;
  const d = c === null ? 0 : state.givens[c] || state.entries[c];
  if (!d) return;
  state.givens[c] = kind === "printed" ? d : 0;
  state.entries[c] = kind === "hand" ? d : 0;
  state.kind.set(c, kind);
  state.edited.add(c);
  $("step-text").textContent = "Edited: press \"Solve again\" to solve the corrected puzzle.";
  renderGridCell(c, $("grid").children[c], placedSoFar(), currentStep());
  showCellTools();
}

// The player answers an unclear cell: the digit becomes a confirmed handwritten entry and the page checks again.
async function confirmEntry(c, d) {
  state.givens[c] = 0;
  state.entries[c] = d;
  state.kind.set(c, "hand");
  state.unclear.delete(c);
  state.edited.add(c);
  state.selected = null;
  showCellTools();
  renderGridCell(c, $("grid").children[c], placedSoFar(), currentStep());
  await solveAgain();
  if (state.grid && state.grid.solution) checkEntries();
}

// Solving again gave no grid (a typed or corrected puzzle that breaks a rule): the grid stays, to correct it.
function keepGridToCorrect(data) {
  state.checking = false;
  showError((data.error || "this puzzle cannot be solved") + ". Correct the grid below and solve again.");
  $("summary").textContent = "Not solved.";
  render();
}

function isNoGrid(data) {
  if (!data) return false;
  return (Array.isArray(data.grids) && !data.grids.length) || /no (sudoku )?grid/i.test(data.error || data.detail || "");
}

function showNoGrid(on) {
  $("no-grid").hidden = !on;
  if (on) {
    showError("");
    $("result").hidden = true;
  }
}

// No grid found, or the player prefers it: an empty grid to type the printed puzzle into.
function typePuzzle() {
  showNoGrid(false);
  showError("");
  Object.assign(state, { result: null, grid: null, givens: Array(81).fill(0), entries: Array(81).fill(0),
                         edited: new Set(), kind: new Map(), unclear: new Map(), selected: null, typed: true,
                         quads: null, size: null, image: null, photo: null, step: -1, checking: false });
  $("result").hidden = false;
  $("figure").hidden = true;
  $("summary").textContent = "Type the printed digits into the grid, then press \"Solve again\".";
  $("check-text").textContent = "";
  buildGrid();
  render();
  showCellTools();
  $("grid").children[0].focus();
}

// ---- buttons -----------------------------------------------------------------------------------

function checkEntries() {
  const grid = state.grid;
  if (!grid) return;
  state.checking = true;
  const mistakes = grid.mistakes || [];
  const p = grid.progress || { entries: 0, to_fill: 0 };
  let text;
  if (!grid.solution) text = "The puzzle is not solved yet, so the entries cannot be checked.";
  else if (!p.entries && !state.unclear.size) text = "Nothing is written in this puzzle yet: no entries to check.";
  else if (allRight(grid) && !state.unclear.size) text = `Solved: all ${p.entries} entries are right.`;
  else if (!mistakes.length) text = `${p.entries} of ${p.to_fill} cells filled in, no mistakes${state.unclear.size ? " among the digits read for sure" : ""}.`;
  else text = `${mistakes.length} mistake${mistakes.length > 1 ? "s" : ""}: ` +
    mistakes.map((m) => `${cellName(m.cell)} has ${m.entry}, the solution has ${m.solution}`).join("; ") + ".";
  if (grid.solution && state.unclear.size) text += " " + unclearQuestions();
  $("check-text").textContent = text;
  render();
}

async function makePdf() {
  const level = $("gen-level").value, count = $("gen-count").value;
  $("gen").disabled = true;
  $("gen-text").textContent = `Making ${count} ${level} puzzle${count > 1 ? "s" : ""}…`;
  try {
    const response = await fetch(`/api/generate?level=${encodeURIComponent(level)}&count=${count}`,
                                 { headers: authHeaders() });
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
$("grid").addEventListener("focusin", (e) => { if (e.target.dataset.cell) selectCell(Number(e.target.dataset.cell)); });
$("grid").addEventListener("click", (e) => { if (e.target.dataset.cell) selectCell(Number(e.target.dataset.cell)); });
$("kind").addEventListener("change", (e) => setKind(e.target.value));
$("retake").addEventListener("click", () => $("camera").click());
$("type-in").addEventListener("click", typePuzzle);

// snapsolve's live camera: the rear camera's frames, reduced to about 640 px JPEG, go over the WebSocket
// /api/live; each answer's cell quadrilaterals place the missing digits over the video, in the grid's own
// perspective. "Freeze" takes a full-resolution still and goes on as photo mode (sendPhoto of app.js).
// Only the camera's new frames are sent (requestVideoFrameCallback says when one is presented), at most 25 a
// second. With ?debug in the address, a corner shows the frames a second sent and answered and the latency.
// Kept apart from app.js; it uses only sendPhoto, showError, SMALL_AT, SMALL_DIGIT, freeCorner and busyCrossings
// from there, and socketUrl from token.js.
"use strict";

const LIVE_SIDE = 640;          // longer side of the frames sent, pixels
const LIVE_QUALITY = 0.7;       // their JPEG quality
const LIVE_AHEAD = 2;           // frames sent and not yet answered at most (the server keeps only the latest)
const LIVE_INTERVAL_MS = 40;    // at most 25 frames a second offered: one per 40 ms on average
const LIVE_DEBUG = new URLSearchParams(location.search).has("debug");
const DEBUG_WINDOW_MS = 2000;   // the debug corner's rates are over the last 2 s

// What live mode shows, kept on window for tests and for curious people.
const live = window.snapsolveLive = {
  active: false,
  socket: null,
  stream: null,
  sent: 0,         // frames sent
  answered: 0,     // answers received
  lastFrame: 0,    // number of the last frame answered
  answer: null,    // the last answer (see snapsolve.web.live)
  locked: false,
  drawn: {},       // cell -> digit drawn over the video by the last answer
  small: [],       // cells whose digit is drawn small, beside the player's pencilled candidates
  marked: [],      // cells ringed as mistakes by the last answer
  unclear: [],     // cells of entries read without certainty (an amber "?")
  status: "",
  timer: null,
  canvas: document.createElement("canvas"),  // where frames are reduced before encoding
  presented: 0,    // the newest camera frame's media time, s (requestVideoFrameCallback's; 0 where it is missing)
  sentFrame: -1,   // the media time of the camera frame sent last: a frame is sent once
  nextAt: 0,       // performance.now() from which the next frame may be sent
  sentAt: new Map(),  // frame number -> when it was sent (ms), for the latency
  debug: null,     // with ?debug: {camera_per_second, sent_per_second, answered_per_second, latency_ms}
  times: { camera: [], sent: [], answered: [], latency: [] },
};

function liveSay(text, warn) {
  live.status = text;
  const el = $("live-status");
  el.textContent = text;
  el.classList.toggle("warn", !!warn);
}

async function liveStart() {
  showError("");
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    showError("This browser gives no camera to this page: open it over https (the link snapsolve serve printed) " +
              "or use \"Take photo\".");
    return;
  }
  $("live").hidden = false;
  $("result").hidden = true;
  liveSay("Starting the camera…");
  try {
    live.stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } },
    });
  } catch (err) {
    $("live").hidden = true;
    showError(`No camera: ${err.message || err.name}. Allow the camera for this page, or use "Take photo".`);
    return;
  }
  const video = $("live-video");
  video.srcObject = live.stream;
  await video.play().catch(() => {});
  live.active = true;
  live.sent = live.answered = live.lastFrame = live.presented = 0;
  live.sentFrame = -1;
  live.nextAt = 0;
  live.sentAt.clear();
  live.times = { camera: [], sent: [], answered: [], latency: [] };
  live.locked = false;
  live.answer = null;
  $("live-debug").hidden = !LIVE_DEBUG;
  watchFrames(video);
  liveConnect();
  $("live-view").scrollIntoView({ block: "start" });
}

function liveConnect() {
  const socket = new WebSocket(socketUrl("/api/live"));
  socket.binaryType = "arraybuffer";
  live.socket = socket;
  socket.onopen = () => { live.startedAt = performance.now(); liveSay("Point the camera at the puzzle."); liveTick(); };
  socket.onmessage = (e) => liveAnswer(JSON.parse(e.data));
  socket.onclose = (e) => {
    if (live.socket !== socket) return;
    live.socket = null;
    if (live.active) {
      liveSay(e.code === 1008 || e.code === 1006 && live.answered === 0
        ? "The server refused the live view: open the page through the link snapsolve serve printed."
        : "Lost the server: is it still running?", true);
    }
  };
}

// Offer each camera frame as it is presented (where requestVideoFrameCallback is missing: by time alone).
function watchFrames(video) {
  if (!video.requestVideoFrameCallback) return;
  const presented = (now, meta) => {
    if (!live.active || video.srcObject !== live.stream) return;
    live.presented = meta.mediaTime;  // the frame's own time: a frame shown again keeps it
    liveMeasure("camera");
    video.requestVideoFrameCallback(presented);
    liveTick(true);
  };
  video.requestVideoFrameCallback(presented);
}

// Send the frame on screen when fewer than LIVE_AHEAD are unanswered and the rate allows (one per
// LIVE_INTERVAL_MS on average: a camera of 30 frames a second gives 25). Where frames are counted, only from the
// frame's own callback (`onFrame`): there the picture drawn is the frame its media time names, so none is sent
// twice (outside it the video may already show the next frame, whose callback is still to come).
function liveTick(onFrame) {
  clearTimeout(live.timer);
  if (!live.active) return;
  const counted = !!$("live-video").requestVideoFrameCallback;
  if (!counted) live.timer = setTimeout(liveTick, LIVE_INTERVAL_MS / 2);
  else if (!onFrame) return;  // the next frame's callback sends it
  const socket = live.socket, video = $("live-video");
  if (!socket || socket.readyState !== WebSocket.OPEN || !video.videoWidth) return;
  if (live.sent - live.lastFrame >= LIVE_AHEAD || live.encoding) return;
  if (counted && live.presented === live.sentFrame) return;
  const now = performance.now();
  if (now < live.nextAt) return;
  live.nextAt = Math.max(live.nextAt + LIVE_INTERVAL_MS, now - LIVE_INTERVAL_MS);
  live.sentFrame = live.presented;
  const scale = Math.min(1, LIVE_SIDE / Math.max(video.videoWidth, video.videoHeight));
  const canvas = live.canvas;
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  live.encoding = true;
  canvas.toBlob((blob) => {
    live.encoding = false;
    if (!blob || !live.active || socket.readyState !== WebSocket.OPEN) return;
    socket.send(blob);
    live.sent += 1;
    live.sentAt.set(live.sent, performance.now());
    liveMeasure("sent");
  }, "image/jpeg", LIVE_QUALITY);
}

// ?debug: frames a second from the camera, sent and answered over the last DEBUG_WINDOW_MS, and the median
// latency of the last 30 answers (from a frame's send to its answer), in a corner of the video.
function liveMeasure(what, frame) {
  if (!LIVE_DEBUG) return;
  const now = performance.now(), times = live.times;
  times[what].push(now);
  if (what === "answered" && live.sentAt.has(frame)) {
    times.latency.push(now - live.sentAt.get(frame));
    times.latency = times.latency.slice(-30);
  }
  for (const key of ["camera", "sent", "answered"]) times[key] = times[key].filter((t) => now - t <= DEBUG_WINDOW_MS);
  const span = Math.min(DEBUG_WINDOW_MS, now - (live.startedAt || now)) / 1000 || 1;
  const sorted = [...times.latency].sort((a, b) => a - b);
  live.debug = {
    camera_per_second: times.camera.length / span,
    sent_per_second: times.sent.length / span,
    answered_per_second: times.answered.length / span,
    latency_ms: sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0,
  };
  const d = live.debug;
  $("live-debug").textContent = `frames/s: camera ${d.camera_per_second.toFixed(1)}, sent ${d.sent_per_second.toFixed(1)}, ` +
    `answered ${d.answered_per_second.toFixed(1)}; latency ${Math.round(d.latency_ms)} ms`;
}

function liveAnswer(answer) {
  if (!live.active) return;
  live.answer = answer;
  if (answer.frame) live.lastFrame = answer.frame;
  live.answered += 1;
  liveMeasure("answered", answer.frame);
  for (const frame of live.sentAt.keys()) if (frame <= answer.frame) live.sentAt.delete(frame);  // dropped ones too
  live.locked = !!answer.locked;
  $("live-lock").hidden = !live.locked;
  const grid = answer.grid;
  if (answer.error) liveSay(answer.error, true);
  else if (!grid) liveSay("No grid in view: hold the whole puzzle inside the picture.", true);
  else if (grid.status !== "solved") liveSay("Reading the puzzle… hold the phone still over it.");
  else if (!live.locked) liveSay(`Reading… the same puzzle ${answer.streak} of ${answer.lock_frames} times.`);
  else {
    const mistakes = (grid.mistakes || []).length, unclear = (grid.unclear_entries || []).length;
    liveSay(mistakes ? `Locked. ${mistakes} mistake${mistakes > 1 ? "s" : ""} ringed in red.`
      : unclear ? `Locked. ${unclear} entr${unclear > 1 ? "ies" : "y"} unclear (?): Freeze to check ${unclear > 1 ? "them" : "it"}.`
      : "Locked: the answers follow the grid. Freeze to step through them.");
  }
  liveDraw(grid, answer.frame_size);
  liveTick();
}

// The missing digits drawn in each cell's own quadrilateral (an affine map of the cell's corners).
function liveDraw(grid, frameSize) {
  const video = $("live-video"), canvas = $("live-overlay");
  const ratio = window.devicePixelRatio || 1;
  const w = video.clientWidth, h = video.clientHeight;
  canvas.style.width = w + "px";
  canvas.style.height = h + "px";
  canvas.width = Math.round(w * ratio);
  canvas.height = Math.round(h * ratio);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  live.drawn = {};
  live.small = [];
  live.marked = [];
  live.unclear = [];
  if (!grid || !grid.solution || !grid.cell_quads || !frameSize || !video.videoWidth) return;
  // The frame's pixels -> the video's displayed content box (object-fit: contain) -> canvas pixels.
  const fit = Math.min(w / video.videoWidth, h / video.videoHeight);
  const sx = (video.videoWidth / frameSize[0]) * fit * ratio, sy = (video.videoHeight / frameSize[1]) * fit * ratio;
  const ox = (w - video.videoWidth * fit) / 2 * ratio, oy = (h - video.videoHeight * fit) / 2 * ratio;
  const at = ([x, y]) => [ox + x * sx, oy + y * sy];
  const entries = grid.entries || "";
  const wrong = new Map((grid.mistakes || []).map((m) => [m.cell, m.solution]));
  // accuse only when sure: an entry read without certainty gets an amber "?", never a red ring
  const unclear = new Set((grid.unclear_entries || []).map((u) => u.cell));
  const pencil = new Set((grid.pencil_marks || []).map((m) => m.cell));
  const taken = new Set(), busy = busyCrossings(grid, unclear, false);  // for the right digits (freeCorner)
  for (let c = 0; c < 81; c++) {
    const given = grid.givens[c] !== ".", hasEntry = entries[c] && entries[c] !== ".";
    if (given) continue;
    const [tl, tr, , bl] = grid.cell_quads[c].map(at);
    // unit cell (0..100) -> the cell as seen: x along the top edge, y along the left edge
    ctx.setTransform((tr[0] - tl[0]) / 100, (tr[1] - tl[1]) / 100, (bl[0] - tl[0]) / 100, (bl[1] - tl[1]) / 100,
                     tl[0], tl[1]);
    if (wrong.has(c)) {
      ctx.beginPath();
      ctx.ellipse(50, 50, 40, 40, 0, 0, 2 * Math.PI);
      ctx.lineWidth = 7;
      ctx.strokeStyle = "#dc2626";
      ctx.stroke();
      // the right digit half a cell tall, beyond the ring, over the corner freeCorner (app.js) chooses
      const [dx, dy] = RIGHT_CORNERS.find(([, , k]) => k === freeCorner(c, taken, busy));
      ctx.font = "700 64px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.lineJoin = "round";
      ctx.lineWidth = 10;
      ctx.strokeStyle = "#fff";
      ctx.strokeText(String(wrong.get(c)), dx ? 109 : -9, dy ? 109 : -9);
      ctx.fillStyle = "#dc2626";
      ctx.fillText(String(wrong.get(c)), dx ? 109 : -9, dy ? 109 : -9);
      live.marked.push(c);
      continue;
    }
    if (unclear.has(c)) {
      ctx.fillStyle = "#d97706";
      ctx.font = "700 40px system-ui, sans-serif";
      ctx.textAlign = "right";
      ctx.textBaseline = "top";
      ctx.fillText("?", 94, 4);
      live.unclear.push(c);
      continue;
    }
    if (hasEntry) continue;
    ctx.fillStyle = "rgba(29, 78, 216, 0.92)";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    if (pencil.has(c)) {  // small, in the lower right, clear of the candidates (as the command's image draws it)
      ctx.font = `700 ${Math.round(72 * SMALL_DIGIT)}px system-ui, sans-serif`;
      ctx.fillText(grid.solution[c], 100 * SMALL_AT, 100 * SMALL_AT + 3);
      live.small.push(c);
    } else {
      ctx.font = "700 72px system-ui, sans-serif";
      ctx.fillText(grid.solution[c], 50, 54);
    }
    live.drawn[c] = Number(grid.solution[c]);
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}

function liveStop() {
  live.active = false;
  clearTimeout(live.timer);
  if (live.socket) {
    const socket = live.socket;
    live.socket = null;
    socket.close();
  }
  if (live.stream) live.stream.getTracks().forEach((t) => t.stop());
  live.stream = null;
  $("live-video").srcObject = null;
  $("live").hidden = true;
}

// A full-resolution still: the camera's own photo when the browser can take one, else the video's frame.
async function liveFreeze() {
  const video = $("live-video");
  let blob = null;
  const track = live.stream && live.stream.getVideoTracks()[0];
  if (track && window.ImageCapture) {
    try {
      blob = await new ImageCapture(track).takePhoto();
    } catch (err) { blob = null; }
  }
  if (!blob && video.videoWidth) {
    const still = document.createElement("canvas");
    still.width = video.videoWidth;
    still.height = video.videoHeight;
    still.getContext("2d").drawImage(video, 0, 0);
    blob = await new Promise((resolve) => still.toBlob(resolve, "image/jpeg", 0.92));
  }
  liveStop();
  if (!blob) {
    showError("Could not take a still from the camera; use \"Take photo\".");
    return;
  }
  sendPhoto(new File([blob], "live.jpg", { type: blob.type || "image/jpeg" }));
}

$("live-start").addEventListener("click", liveStart);
$("live-stop").addEventListener("click", liveStop);
$("live-freeze").addEventListener("click", liveFreeze);
window.addEventListener("resize", () => { if (live.active && live.answer) liveDraw(live.answer.grid, live.answer.frame_size); });

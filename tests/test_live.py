"""The live camera and the secure defaults of ``snapsolve serve`` off the loopback.

Every connection goes to 127.0.0.1: the server made with the ``--host
0.0.0.0`` plan (HTTPS with the generated certificate, a token) listens on the
loopback only. The browser test drives Debian's chromium with its fake camera
playing a clip made from ``samples/image1.jpg`` (tests/live_clip.py); skipped
without Playwright or ``/usr/bin/chromium``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
import ssl
import stat
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("cryptography")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402

import snapsolve.web as web  # noqa: E402
from snapsolve.cli import build_parser  # noqa: E402
from snapsolve.web.app import Settings, create_app  # noqa: E402
from snapsolve.web.live import FULL_READ_EVERY, LOCK_FRAMES, Anchor, LatestFrame, LiveLock, LockView  # noqa: E402

from .conftest import SAMPLES  # noqa: E402
from .live_clip import BLURRED, FPS, FRAMES, NO_GRID, jpeg, make_frames, write_mjpeg  # noqa: E402
from .test_web import CHROMIUM, dat_givens, free_port, keep_screenshot, valid_solution  # noqa: E402

IMAGE1 = SAMPLES / "image1.jpg"
IN_PROGRESS = SAMPLES / "02_25_honor_view_10_0.jpg"
GIVENS = dat_givens(SAMPLES / "image1.dat")
#: Another puzzle, seen through the same hand motion.
OTHER = SAMPLES / "image1040.jpg"


#: Polled by the browser test: pause the video and send its paused picture once (the page sends only new camera
#: frames, and a paused video presents none); true once that frame's answer drew digits (else the video plays on a
#: moment and is paused again).
HOLD_STILL = """() => {
  const live = window.snapsolveLive, video = document.querySelector('#live-video');
  if (!video.paused) { video.pause(); live.pausedAt = live.sent; live.pausedTime = Date.now(); return false; }
  if (live.sent === live.pausedAt) { live.presented = -live.pausedTime; liveTick(true); return false; }
  if (live.lastFrame > live.pausedAt && Object.keys(live.drawn).length) return true;
  if (live.lastFrame > live.pausedAt || Date.now() - live.pausedTime > 20000) video.play();
  return false;
}"""


def serve_args(*options: str):
    return build_parser().parse_args(["serve", *options])


@pytest.fixture(scope="module")
def clip():
    return make_frames(IMAGE1)


@pytest.fixture(scope="module")
def solution():
    from snapsolve.solver import solve_puzzle

    result = solve_puzzle([0 if ch == "." else int(ch) for ch in GIVENS])
    return "".join(map(str, result.solution))


# ---- latest frame wins, the lock ------------------------------------------------------------------------------------


def test_latest_frame_wins():
    async def scenario():
        slot = LatestFrame()
        assert slot.put(b"1") == 1
        assert await slot.get() == (1, b"1")
        for data in (b"2", b"3", b"4"):  # come in while frame 1 is being read
            slot.put(data)
        assert await slot.get() == (4, b"4") and (slot.received, slot.dropped) == (4, 2)
        waiting = asyncio.create_task(slot.get())
        await asyncio.sleep(0)
        assert not waiting.done()  # nothing new: the reader waits
        slot.put(b"5")
        assert await waiting == (5, b"5") and slot.dropped == 2
        slot.put(b"6")
        slot.close()
        assert await slot.get() == (6, b"6")  # what is left still comes out, then the end
        assert await slot.get() is None
        gone = LatestFrame()  # the client left: its unread frame is dropped, not read for nobody
        gone.put(b"1")
        gone.discard()
        gone.close()
        assert await gone.get() is None and gone.dropped == 1

    asyncio.run(scenario())


def _grid(givens: str, solution: str | None = "x" * 81, status: str = "solved") -> dict:
    return {
        "givens": givens,
        "solution": solution,
        "status": status,
        "corners": [[0, 0]] * 4,
        "rotation": 90,
        "entries": "." * 81,
        "mistakes": [],
    }


def test_lock_after_k_equal_readings_then_follow(solution):
    lock = LiveLock()
    other = "1" + GIVENS[1:] if GIVENS[0] == "." else "." + GIVENS[1:]
    locks = [lock.update(_grid(GIVENS, solution)).locked for _ in range(LOCK_FRAMES)]
    assert locks == [False] * (LOCK_FRAMES - 1) + [True]
    assert lock.update(None) == LockView(None, True, 0, False, LOCK_FRAMES)  # no grid in view: the lock stays
    blurred = "".join("." if i in (3, 10) and ch != "." else ch for i, ch in enumerate(GIVENS))
    answer = lock.update(_grid(blurred, None, "multiple_solutions"))  # two printed digits lost to blur
    assert answer.follows and answer.grid["solution"] == solution and answer.grid["givens"] == GIVENS
    assert answer.grid["status"] == "solved" and answer.streak == 0
    assert lock.hint() == 90  # following: the next frame is read at the locked rotation
    # another puzzle read LOCK_FRAMES times in a row takes the lock over
    far = "".join(ch if i % 2 else "." for i, ch in enumerate("123456789" * 9))
    for _ in range(LOCK_FRAMES - 1):
        assert not lock.update(_grid(far, "y" * 81)).follows
        assert lock.hint() is None  # not following: the next frame decides its orientation
    assert lock.update(_grid(far, "y" * 81)).grid["solution"] == "y" * 81 and lock.locked.givens == far
    # one different reading does not
    lock.update(_grid(other, solution))
    assert lock.locked.givens == far
    lock.reset()
    assert not lock.update(_grid(GIVENS, solution)).locked


def test_follow_from_a_clean_reading_until_the_next_full_read(solution):
    """Following starts from a reading of exactly the locked givens, is renewed by each, and stops every
    FULL_READ_EVERY frames, on another puzzle, and after a reading that differs too much."""
    lock = LiveLock()
    anchor = {"corners": [[1, 1], [9, 1], [9, 9], [1, 9]], "ink": [0.0] * 81}
    for _ in range(LOCK_FRAMES - 1):
        lock.update(_grid(GIVENS, solution), anchor=anchor)
        assert lock.follow_from() is None  # not locked yet: every frame is read
    lock.update(_grid(GIVENS, solution), anchor=anchor)
    assert lock.follow_from() == Anchor(anchor["corners"], anchor["ink"], 90)
    moved = {"corners": [[2, 1], [10, 1], [10, 9], [2, 9]], "ink": anchor["ink"]}
    geometry = {"corners": moved["corners"], "rotation": 90, "cell_quads": []}
    answer = lock.update(geometry, followed=True, anchor=moved)
    assert answer.follows and answer.locked and answer.grid["solution"] == solution
    assert answer.grid["givens"] == GIVENS and answer.grid["corners"] == moved["corners"]
    assert lock.follow_from().corners == moved["corners"]  # the next frame is looked for where this one was
    for _ in range(FULL_READ_EVERY - 1):
        assert lock.follow_from() is not None
        lock.update(geometry, followed=True, anchor=moved)
    assert lock.follow_from() is None  # time for a full reading
    lock.update(_grid(GIVENS, solution), anchor=anchor)
    assert lock.follow_from() is not None  # the full reading renews the anchor and the count
    assert lock.update(None).locked and lock.follow_from() is not None  # no grid: may come back where it was
    blurred = "".join("." if i == 3 and ch != "." else ch for i, ch in enumerate(GIVENS))
    lock.update(_grid(blurred, None, "multiple_solutions"), anchor=moved)
    assert lock.follow_from().corners == moved["corners"]  # the locked puzzle, blurred: its corners,
    assert lock.follow_from().ink == anchor["ink"]  # the clean reading's ink
    far = "".join(ch if i % 2 else "." for i, ch in enumerate("123456789" * 9))
    lock.update(_grid(far, "y" * 81), anchor=anchor)
    assert lock.follow_from() is None  # another puzzle: read in full until the locked one is read again
    with pytest.raises(ValueError):
        LiveLock().update(geometry, followed=True, anchor=moved)  # nothing locked: nothing to follow


# ---- following a locked grid ----------------------------------------------------------------------------------------


def test_follow_grid_finds_the_clip_grid_again_and_its_cells_ink_is_a_fingerprint(clip):
    import cv2
    import numpy as np

    from snapsolve.frames import decode_frame
    from snapsolve.vision import locate_grids
    from snapsolve.vision.follow import cell_ink, follow_grid, same_cells

    frames = [decode_frame(jpeg(f)) for f in clip]
    corners = locate_grids(frames[6], max_grids=1)[0].corners
    reference = cell_ink(frames[6], corners)
    marked = np.array([ch != "." for ch in GIVENS])
    assert (reference[marked] > 0.15).all() and (reference[~marked] < 0.05).all()  # upright as seen: the givens
    for n in range(7, 20):  # frame to frame, as the live view follows it
        followed = follow_grid(frames[n], corners)
        located = locate_grids(frames[n], max_grids=1)[0].corners
        assert followed is not None and np.abs(followed.corners - located).max() <= 3  # pixels
        corners = followed.corners
        assert same_cells(cell_ink(frames[n], corners), reference)
    assert follow_grid(frames[min(NO_GRID)], corners) is None  # the table: nothing to follow
    assert follow_grid(frames[20], corners) is None  # blurred beyond its lines
    # a cell written in since: no longer the same cells
    written = frames[19].copy()
    cell = next(i for i, ch in enumerate(GIVENS) if ch == ".")
    quad = cv2.getPerspectiveTransform(np.float32([[0, 0], [9, 0], [9, 9], [0, 9]]), corners)
    centre = cv2.perspectiveTransform(np.float32([[[cell % 9 + 0.5, cell // 9 + 0.5]]]), quad)[0, 0]
    cv2.putText(written, "7", (int(centre[0]) - 8, int(centre[1]) + 10), cv2.FONT_HERSHEY_SIMPLEX, 1, 0, 3)
    assert not same_cells(cell_ink(written, corners), reference)
    # the same grid named from another corner (turned a quarter), and another puzzle: not the same cells
    turned = np.roll(corners, 1, axis=0)
    assert not same_cells(cell_ink(frames[19], turned), reference)
    other = decode_frame(jpeg(make_frames(OTHER, 8)[6]))
    assert not same_cells(cell_ink(other, locate_grids(other, max_grids=1)[0].corners), reference)


def test_live_socket_follows_the_locked_grid_and_reads_in_full_when_it_cannot(clip, solution):
    """Locked, the clip's frames are followed (``followed``) with the right solution at their own corners; a frame
    of another puzzle is read in full and shown as it is, and the next frames are read until the lock's own
    puzzle is read again."""
    import numpy as np

    from snapsolve.frames import decode_frame, read_frame

    other = make_frames(OTHER, 8)[6]
    with TestClient(create_app(Settings(workers=1))) as client, client.websocket_connect("/api/live") as ws:

        def send(frame):
            ws.send_bytes(jpeg(frame))
            return ws.receive_json()

        answers = [send(clip[n]) for n in range(4, 4 + LOCK_FRAMES)]
        assert answers[-1]["locked"] and not any(a["followed"] for a in answers)
        for n in range(4 + LOCK_FRAMES, 20):
            answer = send(clip[n])
            grid = answer["grid"]
            assert answer["followed"] and answer["follows"] and answer["locked"]
            assert grid["givens"] == GIVENS and grid["solution"] == solution and grid["status"] == "solved"
            full = read_frame(decode_frame(jpeg(clip[n]))).to_json()["grid"]  # where a full reading puts the cells
            assert np.abs(np.array(grid["cell_quads"]) - np.array(full["cell_quads"])).max() <= 3  # pixels
        assert answer["cpu_seconds"] < 0.5 * min(a["cpu_seconds"] for a in answers)  # far less work than a reading
        answer = send(clip[20])  # blurred beyond reading: tried, read in full, no grid; the lock stays
        assert not answer["followed"] and answer["grid"] is None and answer["locked"]
        assert send(clip[22])["followed"]  # back where it was: followed again
        answer = send(other)  # another puzzle in the same place: the cells' ink differs, read in full
        assert not answer["followed"] and not answer["follows"] and answer["grid"]["givens"] != GIVENS
        answer = send(clip[23])  # read in full until the locked puzzle is read exactly again
        assert not answer["followed"] and answer["follows"] and answer["grid"]["solution"] == solution
        assert send(clip[24])["followed"]


# ---- the plan off the loopback: HTTPS, certificate, token ------------------------------------------------------------


@pytest.fixture
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(web, "lan_address", lambda: "192.0.2.7")  # a documentation address: never contacted
    return tmp_path / "config" / "snapsolve"


def test_plan_is_secure_off_the_loopback(config_home):
    from cryptography import x509

    first = web.plan(serve_args("--host", "0.0.0.0"))
    assert first.scheme == "https" and first.token and len(first.token) >= 32
    assert Path(first.certfile) == config_home / "cert.pem" and Path(first.keyfile) == config_home / "key.pem"
    assert stat.S_IMODE(os.stat(first.keyfile).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(config_home).st_mode) == 0o700
    assert len(first.fingerprint.split(":")) == 32
    cert = x509.load_pem_x509_certificate(Path(first.certfile).read_bytes())
    names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert {str(ip) for ip in names.get_values_for_type(x509.IPAddress)} >= {"127.0.0.1", "192.0.2.7"}
    again = web.plan(serve_args("--host", "0.0.0.0"))
    assert again.fingerprint == first.fingerprint and again.token != first.token  # kept certificate, new token
    assert web.plan(serve_args("--host", "0.0.0.0", "--http")).scheme == "http"
    assert web.plan(serve_args("--host", "0.0.0.0", "--no-token")).token is None
    loopback = web.plan(serve_args())
    assert (loopback.scheme, loopback.token) == ("http", None)
    own = web.plan(serve_args("--certfile", first.certfile, "--keyfile", first.keyfile))
    assert own.scheme == "https" and own.fingerprint == first.fingerprint
    with pytest.raises(ValueError, match="both"):
        web.plan(serve_args("--host", "0.0.0.0", "--certfile", first.certfile))


def test_announce_carries_the_token(config_home):
    pytest.importorskip("segno")
    out = io.StringIO()
    url = web.announce("0.0.0.0", 8443, out, token="abc", scheme="https", fingerprint="AA:BB")
    text = out.getvalue()
    assert url == "https://192.0.2.7:8443/?token=abc" and url in text and "█" in text  # the QR code
    assert "AA:BB" in text and "warning" not in text


def test_cli_serve_options():
    args = serve_args("--host", "0.0.0.0", "--no-token", "--http")
    assert args.no_token and args.http and args.certfile is None


def test_token_gate_refuses_without_token():
    with TestClient(create_app(Settings(workers=1, token="s3cret-token"))) as client:
        assert client.get("/api/health").status_code == 401
        assert client.get("/api/health?token=wrong").status_code == 401
        assert client.post("/api/solve", json={"puzzle": GIVENS}).status_code == 401
        assert client.get("/api/health?token=s3cret-token").status_code == 200
        assert client.get("/api/health", headers={"Authorization": "Bearer s3cret-token"}).status_code == 200
        assert client.get("/").status_code == 200  # the page itself holds nothing: it asks for the token
        with pytest.raises(WebSocketDenialResponse) as refused:
            with client.websocket_connect("/api/live"):
                pass
        assert refused.value.status_code == 401


def test_live_socket_locks_on_the_clip(clip, solution):
    """Frames of the clip through /api/live: no grid said plainly, the reading locks with the right solution."""
    with TestClient(create_app(Settings(workers=1))) as client, client.websocket_connect("/api/live") as ws:
        ws.send_bytes(b"not a jpeg")
        assert "not a readable" in ws.receive_json()["error"]
        ws.send_bytes(jpeg(clip[min(NO_GRID)]))
        answer = ws.receive_json()
        assert answer["grid"] is None and not answer["locked"] and answer["frame"] == 2
        for n in range(6, 6 + LOCK_FRAMES):
            ws.send_bytes(jpeg(clip[n]))
            answer = ws.receive_json()
        assert answer["locked"] and answer["follows"] and answer["streak"] == LOCK_FRAMES
        grid = answer["grid"]
        assert grid["givens"] == GIVENS and grid["solution"] == solution and valid_solution(GIVENS, solution)
        assert len(grid["cell_quads"]) == 81 and answer["frame_size"] == [640, 480]
        assert "image" not in grid and "steps" not in grid  # nothing a frame does not need
        ws.send_bytes(jpeg(clip[45]))  # a blurred frame still follows the locked puzzle
        answer = ws.receive_json()
        assert BLURRED[45] and answer["follows"] and answer["grid"]["solution"] == solution
        ws.send_bytes(jpeg(clip[20]))  # blurred beyond reading: no grid, the lock stays
        answer = ws.receive_json()
        assert BLURRED[20] and answer["grid"] is None and answer["locked"]


def buggy_frame(data: bytes, rotation=None) -> dict:
    """A frame's work with a bug in it (a plain ValueError: not the client's fault)."""
    raise ValueError("a bug in the frame's reading")


def test_a_bug_in_a_frame_is_logged_with_an_error_id_and_the_next_frame_goes_on(clip, monkeypatch, caplog):
    monkeypatch.setattr("snapsolve.web.live.frame_task", buggy_frame)
    with TestClient(create_app(Settings(workers=1))) as client, client.websocket_connect("/api/live") as ws:
        with caplog.at_level(logging.ERROR, logger="snapsolve.web"):
            ws.send_bytes(jpeg(clip[10]))
            answer = ws.receive_json()
        assert answer["error"] == "reading the frame failed; the next one goes on" and answer["grid"] is None
        logged = [
            r.getMessage() for r in caplog.records if re.search(r"error [0-9a-f]{12} on a live frame", r.getMessage())
        ]
        assert logged and "a bug in the frame's reading" in logged[0] and "in buggy_frame" in logged[0]
        monkeypatch.undo()
        ws.send_bytes(b"not a jpeg")  # the client's fault (BadFrame): said as it is
        assert ws.receive_json()["error"] == "the frame is not a readable JPEG or PNG image"


def test_stale_frames_dropped_and_connections_take_turns(clip):
    """A flooding connection gets its first and latest frames read, the rest dropped; a second one is not starved."""
    frame = jpeg(clip[10])
    received: dict[str, list] = {"a": [], "b": []}

    def drain(ws, name: str, count: int) -> None:
        for _ in range(count):
            answer = ws.receive_json()
            received[name].append((time.perf_counter(), answer))

    with (
        TestClient(create_app(Settings(workers=1))) as client,
        client.websocket_connect("/api/live") as a,
        client.websocket_connect("/api/live") as b,
    ):
        a.send_bytes(frame)
        a.receive_json()  # the worker is warm
        for _ in range(10):  # frames 2..11 come in while frame 2 is read: 3..10 are stale
            a.send_bytes(frame)
        b.send_bytes(frame)
        readers = [threading.Thread(target=drain, args=(a, "a", 2)), threading.Thread(target=drain, args=(b, "b", 1))]
        for reader in readers:
            reader.start()
        for reader in readers:
            reader.join(120)
    (_, a2), (a_last_time, a_last) = received["a"]
    [(b_time, b1)] = received["b"]
    assert (a2["frame"], a_last["frame"], a_last["dropped"], a_last["received"]) == (2, 11, 8, 11)
    assert (b1["frame"], b1["dropped"]) == (1, 0)
    assert b_time < a_last_time  # b's one frame went before a's next: the pool is shared in turns


# ---- the real server: HTTPS with the generated certificate, the token, the page with the fake camera -----------------


@pytest.fixture(scope="module")
def secure_server(tmp_path_factory):
    """The app as ``serve --host 0.0.0.0`` plans it (HTTPS, generated certificate, token), listening on 127.0.0.1."""
    import uvicorn

    home = tmp_path_factory.mktemp("config")
    patch = pytest.MonkeyPatch()
    patch.setenv("XDG_CONFIG_HOME", str(home))
    patch.setattr(web, "lan_address", lambda: "192.0.2.7")
    how = web.plan(serve_args("--host", "0.0.0.0"))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(Settings(workers=1, token=how.token)),
            host="127.0.0.1",
            port=port,
            ssl_certfile=how.certfile,
            ssl_keyfile=how.keyfile,
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(300):
            if server.started:
                break
            time.sleep(0.1)
        yield f"https://127.0.0.1:{port}/", how
    finally:
        server.should_exit = True
        thread.join(30)
        patch.undo()


def test_https_with_generated_certificate_and_token(secure_server):
    url, how = secure_server
    trust = ssl.create_default_context(cafile=how.certfile)  # the generated certificate, and nothing else
    with httpx.Client(verify=trust) as client:
        assert client.get(url + "api/health").status_code == 401
        health = client.get(url + "api/health", params={"token": how.token})
        assert health.status_code == 200 and health.json()["status"] == "ok"
        assert (
            client.get(
                url,
            ).status_code
            == 200
        )
    with pytest.raises(httpx.ConnectError):  # an unknown certificate is refused by default
        httpx.get(url + "api/health", verify=True)


def test_wss_needs_the_token(secure_server, clip):
    websockets = pytest.importorskip("websockets.sync.client")
    from websockets.exceptions import InvalidStatus

    url, how = secure_server
    trust = ssl.create_default_context(cafile=how.certfile)
    socket_url = url.replace("https://", "wss://") + "api/live"
    # a generous handshake timeout: on a loaded machine the default 10 s ran out once, and websockets then
    # waited some 20 minutes for its reading thread before raising
    with pytest.raises(InvalidStatus) as refused:
        websockets.connect(socket_url, ssl=trust, open_timeout=120).close()
    assert refused.value.response.status_code == 401
    with websockets.connect(f"{socket_url}?token={how.token}", ssl=trust, open_timeout=120) as ws:
        ws.send(jpeg(clip[10]))
        import json

        answer = json.loads(ws.recv(timeout=60))
        assert answer["frame"] == 1 and answer["grid"]["givens"] == GIVENS


def test_live_camera_in_chromium(secure_server, tmp_path, solution):
    """The fake camera plays the clip: the answers appear in the right cells, the reading locks, Freeze goes on
    as a photo."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    url, how = secure_server
    shots = Path(os.environ.get("SNAPSOLVE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    video = write_mjpeg(make_frames(IMAGE1, FRAMES), tmp_path / "hand.mjpeg")
    expected = {c: int(solution[c]) for c in range(81) if GIVENS[c] == "."}
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--use-fake-device-for-media-stream",
                "--use-fake-ui-for-media-stream",
                f"--use-file-for-fake-video-capture={video}",
            ],
        )
        try:
            context = browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                ignore_https_errors=True,
                permissions=["camera"],
            )
            page = context.new_page()
            page.goto(f"{url}?token={how.token}")
            assert "token" not in page.url  # taken out of the address bar, kept by the page
            page.click("#live-start")
            # The state is taken in the same evaluation that sees the lock: read a moment later, on a loaded
            # machine, the clip may already have reached its table stretch, which clears the drawn digits.
            live = page.wait_for_function(
                "(() => { const l = window.snapsolveLive;"
                " return l.locked && Object.keys(l.drawn).length > 0"
                " ? {drawn: {...l.drawn}, answer: l.answer, status: l.status} : null; })()",
                timeout=60000,
            ).json_value()
            drawn = {int(c): d for c, d in live["drawn"].items()}
            assert drawn == expected  # every missing digit, in its own cell; the givens left alone
            assert live["answer"]["grid"]["givens"] == GIVENS and "Locked" in live["status"]
            assert page.is_visible("#live-lock")
            # The screenshot: the video held still until a frame sent after the pause is answered with the
            # digits, so that the overlay and the picture under it are the same frame.
            page.wait_for_function(HOLD_STILL, timeout=120000, polling=200)
            page.screenshot(path=str(shots / "web-phone-live.png"))
            page.evaluate("document.querySelector('#live-video').play()")
            # the table stretch of the clip: said plainly
            page.wait_for_function("window.snapsolveLive.status.startsWith('No grid in view')", timeout=60000)
            assert page.is_visible("#live-lock")  # the lock stays while the grid is out of view
            page.wait_for_function("Object.keys(window.snapsolveLive.drawn).length > 0", timeout=60000)
            with page.expect_response("**/api/solve") as answer:
                page.click("#live-freeze")
            assert answer.value.status == 200  # the still went up with the token in its header
            # on a loaded machine the still may catch the clip's table stretch: the page then says "no grid"
            page.wait_for_selector("#result:not([hidden]), #error:not([hidden]), #no-grid:not([hidden])", timeout=60000)
            assert page.is_hidden("#live")
            data = answer.value.json()
            if data["grids"]:  # a still of the grid (not of the table): photo mode with steps
                assert page.text_content("#level") == data["grids"][0]["level"]
                assert data["grids"][0]["givens"] == GIVENS
        finally:
            browser.close()


#: Installed before the page's scripts: every binary message the page sends over a WebSocket is recorded with its
#: time (ms, performance.now) and the SHA-256 of its bytes (two sends of one camera frame are the same JPEG).
RECORD_SENDS = """
window.__sends = [];
const plainSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  const record = { at: performance.now(), hash: null };
  if (data instanceof Blob) {
    window.__sends.push(record);
    data.arrayBuffer().then((b) => crypto.subtle.digest("SHA-256", b)).then((h) => {
      record.hash = Array.from(new Uint8Array(h), (x) => x.toString(16).padStart(2, "0")).join("");
    });
  }
  return plainSend.call(this, data);
};
"""


#: Frames of the clip played to measure the frame rate (15 s at 30 frames a second: longer than the measurement).
LONG_CLIP = 450


def test_live_camera_offers_at_most_25_new_frames_a_second(secure_server, tmp_path):
    """The fake camera plays 30 distinct frames a second: the page sends at most 25 a second, never one frame
    twice, and with ?debug shows its frame rate and latency in a corner."""
    import cv2

    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    url, how = secure_server
    frames = make_frames(IMAGE1, LONG_CLIP)
    for n, frame in enumerate(frames):  # every frame its own (the clip's table stretches repeat a picture)
        cv2.putText(frame, f"{n:03d}", (560, 470), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2)
    video = write_mjpeg(frames, tmp_path / "numbered.mjpeg")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--use-fake-device-for-media-stream",
                "--use-fake-ui-for-media-stream",
                f"--use-file-for-fake-video-capture={video}",
            ],
        )
        try:
            context = browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                ignore_https_errors=True,
                permissions=["camera"],
            )
            context.add_init_script(RECORD_SENDS)
            page = context.new_page()
            page.goto(f"{url}?token={how.token}&debug")
            assert "token" not in page.url and "debug" in page.url  # the token taken out, the flag kept
            page.click("#live-start")
            page.wait_for_function("window.snapsolveLive.answered >= 10", timeout=60000)
            start = page.evaluate("performance.now()")
            page.wait_for_timeout(6000)
            end = page.evaluate("performance.now()")
            page.wait_for_function("window.__sends.every((s) => s.hash)", timeout=10000)
            sends = page.evaluate("window.__sends")
            visible = page.is_visible("#live-debug")
            debug = page.text_content("#live-debug") if visible else ""
            shown = page.evaluate("window.snapsolveLive.debug")
        finally:
            browser.close()
    window = [s for s in sends if start <= s["at"] < end]
    seconds = (end - start) / 1000
    assert len(window) <= 25 * seconds + 2, f"{len(window) / seconds:.1f} frames a second sent"
    first = sends[0]["at"]  # the camera loops its clip: within one pass every frame is new
    hashes = [s["hash"] for s in sends if s["at"] < first + 1000 * (LONG_CLIP / FPS - 1)]
    twice = len(hashes) - len(set(hashes))
    assert not twice, f"{twice} of {len(hashes)} frames sent twice"
    assert len(window) >= 5 * seconds, f"only {len(window) / seconds:.1f} frames a second sent"  # it does send
    # the corner says what the page measures: frames a second from the camera, sent and answered; the latency
    assert visible and re.search(r"frames/s: camera [\d.]+, sent [\d.]+, answered [\d.]+; latency \d+ ms", debug), debug
    assert 0 < shown["sent_per_second"] <= 25.5 and shown["latency_ms"] > 0, shown


def test_live_overlay_draws_small_beside_pencil_marks(secure_server, tmp_path):
    """The sample in progress, whose player pencilled candidates in three cells, through the fake camera: once
    locked, the followed frames still carry the pencil marks and the overlay draws those cells' digits small."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    url, how = secure_server
    video = write_mjpeg(make_frames(IN_PROGRESS, FRAMES), tmp_path / "in_progress.mjpeg")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--use-fake-device-for-media-stream",
                "--use-fake-ui-for-media-stream",
                f"--use-file-for-fake-video-capture={video}",
            ],
        )
        try:
            context = browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                ignore_https_errors=True,
                permissions=["camera"],
            )
            page = context.new_page()
            page.goto(f"{url}?token={how.token}")
            page.click("#live-start")
            live = page.wait_for_function(
                "(() => { const l = window.snapsolveLive;"
                " return l.locked && l.answer.followed && Object.keys(l.drawn).length > 0"
                " ? {small: [...(l.small || [])], drawn: {...l.drawn}, grid: l.answer.grid} : null; })()",
                timeout=60000,
            ).json_value()
            page.wait_for_function(HOLD_STILL, timeout=120000, polling=200)
            keep_screenshot(page, "web-phone-live-pencil.png")
        finally:
            browser.close()
    pencil = {m["cell"] for m in live["grid"]["pencil_marks"]}
    assert pencil == {30, 52, 53}  # the sample's pencilled cells (02_25_honor_view_10_0.cells)
    assert set(live["small"]) == pencil and pencil <= {int(c) for c in live["drawn"]}

"""``snapsolve serve``: the JSON API through FastAPI's test client, and the page in a phone-size Chromium.

Skipped when the ``web`` extra is not installed; the browser test also when
Playwright for Python or Debian's ``/usr/bin/chromium`` is missing. Set
``SNAPSOLVE_SCREENSHOTS=DIR`` to keep the browser test's screenshots (the
README's ``docs/web-phone.png`` comes from there).
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("python_multipart")
pytest.importorskip("httpx")  # the test client

from fastapi.testclient import TestClient  # noqa: E402

from snapsolve.vision.rectify import cell_quads  # noqa: E402
from snapsolve.web import announce  # noqa: E402
from snapsolve.web.app import MAX_UPLOAD_BYTES, STATIC, Settings, create_app  # noqa: E402

from .conftest import FIXTURES, SAMPLES  # noqa: E402

BAD = FIXTURES / "bad"
IMAGE1 = SAMPLES / "image1.jpg"
IN_PROGRESS = SAMPLES / "02_25_honor_view_10_0.jpg"
CHROMIUM = Path("/usr/bin/chromium")


def dat_givens(path: Path) -> str:
    """The 81 givens of an imageN.dat label, '.' for empty."""
    rows = path.read_text().splitlines()[2:11]
    return "".join("." if t == "0" else t for row in rows for t in row.split())


def cells_label(path: Path) -> tuple[str, str]:
    """(givens, entries) of a NAME.cells label, 81 characters each."""
    tokens = path.read_text().split()
    givens = "".join(t if t.isdigit() else "." for t in tokens)
    entries = "".join(t[1] if t.startswith("h") else "." for t in tokens)
    return givens, entries


def valid_solution(givens: str, solution: str) -> bool:
    """True when `solution` is a full valid grid that keeps every given."""
    if len(solution) != 81 or any(g != "." and g != s for g, s in zip(givens, solution)):
        return False
    units = (
        [[r * 9 + c for c in range(9)] for r in range(9)]
        + [[r * 9 + c for r in range(9)] for c in range(9)]
        + [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
    )
    return all(sorted(solution[i] for i in unit) == list("123456789") for unit in units)


def decode_jpeg(text: str):
    import cv2
    import numpy as np

    data = base64.b64decode(text)
    assert data[:2] == b"\xff\xd8", "not a JPEG"
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


@pytest.fixture(scope="module")
def client():
    app = create_app(Settings(workers=2, timeout=60, queue_per_worker=4))  # test_concurrent_requests sends 10
    with TestClient(app) as c:
        yield c
    assert not Path(app.state.work.root).exists(), "private folder left after shutdown"


def upload(client, path: Path, **fields):
    with open(path, "rb") as fh:
        return client.post(
            "/api/solve",
            files={"image": (path.name, fh, "image/jpeg")},
            data={k: str(v).lower() for k, v in fields.items()},
        )


def test_health_and_docs(client):
    health = client.get("/api/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert health.json()["limits"]["upload_bytes"] == MAX_UPLOAD_BYTES
    assert client.get("/docs").status_code == 200
    spec = client.get("/openapi.json").json()
    body = spec["paths"]["/api/solve"]["post"]["requestBody"]["content"]
    assert {"multipart/form-data", "application/json"} <= set(body)


def test_page_is_served_without_outside_assets(client):
    page = client.get("/")
    assert page.status_code == 200 and 'capture="environment"' in page.text and 'accept="image/*"' in page.text
    for asset in ("/static/app.js", "/static/style.css", "/static/icon.svg"):
        assert client.get(asset).status_code == 200, asset
    for file in STATIC.iterdir():  # no CDN: every script, style and font comes from the package
        text = file.read_text()
        outside = [
            m for m in re.findall(r"(?:https?:)?//[a-z0-9-]+(?:\.[a-z0-9-]+)+", text, re.I) if m != "http://www.w3.org"
        ]  # the SVG namespace is a name, never fetched
        assert not outside, (file.name, outside)


def test_photo_solved_with_annotated_image(client):
    response = upload(client, IMAGE1, photo=True)
    assert response.status_code == 200
    data = response.json()
    assert data["error"] is None and data["input"] == "image1.jpg"
    grid = data["grids"][0]
    assert grid["status"] == "solved" and grid["givens"] == dat_givens(SAMPLES / "image1.dat")
    assert valid_solution(grid["givens"], grid["solution"])
    assert grid["level"] in ("easy", "medium", "hard", "unfair", "extreme") and grid["score"] > 0
    assert "output" not in grid  # no server path leaks to the client
    assert data["image_size"] == [640, 480]
    annotated, plain = decode_jpeg(data["image"]), decode_jpeg(data["photo"])
    assert annotated.shape == plain.shape == (480, 640, 3)
    assert len(grid["cell_quads"]) == 81 and grid["cell_quads"][0][0] == pytest.approx(grid["corners"][0], abs=0.2)


def test_quads_follow_rotation(client, tmp_path):
    """Turned a quarter, the photo reads upright, and the answers are drawn exactly in the cells the givens leave
    empty."""
    import cv2
    import numpy as np

    turned = tmp_path / "turned.png"
    cv2.imwrite(str(turned), cv2.rotate(cv2.imread(str(IMAGE1)), cv2.ROTATE_90_CLOCKWISE))
    data = upload(client, turned, photo=True).json()
    grid = data["grids"][0]
    assert grid["rotation"] in (90, 270) and grid["givens"] == dat_givens(SAMPLES / "image1.dat")
    diff = np.abs(decode_jpeg(data["image"]).astype(int) - decode_jpeg(data["photo"]).astype(int)).sum(axis=2)
    for cell, quad in enumerate(grid["cell_quads"]):
        x, y = np.mean(quad, axis=0).astype(int)
        drawn = diff[y - 8 : y + 8, x - 8 : x + 8].mean() > 20
        assert drawn == (grid["givens"][cell] == "."), cell


def test_cell_quads_unit():
    corners = [[100, 100], [1000, 100], [1000, 1000], [100, 1000]]
    upright = cell_quads(corners, 0)
    assert upright.shape == (81, 4, 2) and upright.dtype.name == "float64"
    assert upright[0][0] == pytest.approx([100, 100]) and upright[80][2] == pytest.approx([1000, 1000])
    assert upright[8][1] == pytest.approx([1000, 100]) and upright[10][0] == pytest.approx([200, 200])
    # Read after turning the photo a quarter (np.rot90 once): the upright top-left cell is seen top-right.
    assert cell_quads(corners, 90)[0][0] == pytest.approx([1000, 100])
    assert cell_quads(corners, 180)[0][0] == pytest.approx([1000, 1000])
    assert cell_quads(corners, 270)[0][0] == pytest.approx([100, 1000])


def test_in_progress_photo_with_steps(client):
    data = upload(client, IN_PROGRESS, explain=True).json()
    assert data["error"] is None
    grid = data["grids"][0]
    givens, entries = cells_label(SAMPLES / "02_25_honor_view_10_0.cells")
    assert grid["givens"] == givens and grid["entries"] == entries
    assert grid["mistakes"] == []
    written = 81 - entries.count(".")
    assert grid["progress"] == {"entries": written, "entered": written, "to_fill": givens.count(".")}
    placed = [p for step in grid["steps"] for p in step["placements"]]
    assert len(placed) == grid["progress"]["to_fill"] - grid["progress"]["entries"]  # steps start from the position
    assert all(grid["solution"][c] == str(d) and entries[c] == "." for c, d in placed)
    assert all(step["cells"] and step["text"] for step in grid["steps"])
    assert decode_jpeg(data["image"]).shape[:2] == (1600, 1200)  # 1728x2304 sent back at 1600 on the long side
    assert data["image_size"] == [1728, 2304] and data["photo"] is None


def test_puzzle_string_hint_explain_and_mistake(client):
    givens = dat_givens(SAMPLES / "image1.dat")
    data = client.post("/api/solve", json={"puzzle": givens, "hint": True}).json()
    grid = data["grids"][0]
    assert data["error"] is None and data["image"] is None and "corners" not in grid
    assert grid["hint"]["cells"] and (grid["hint"]["placements"] or grid["hint"]["eliminations"])
    solution = grid["solution"]
    # A position with one wrong entry: the hint is that mistake, and the mistakes list it.
    cell = givens.index(".")
    wrong = str(int(solution[cell]) % 9 + 1)
    entries = "." * cell + wrong + "." * (80 - cell)
    data = client.post("/api/solve", json={"puzzle": f"{givens} {entries}", "hint": True, "explain": True}).json()
    grid = data["grids"][0]
    mistake = {"cell": cell, "entry": int(wrong), "solution": int(solution[cell])}
    assert grid["mistakes"] == [dict(mistake, entered=int(wrong))]  # entered: the deprecated name of entry
    assert grid["hint"]["technique"] == "mistake" and grid["hint"]["cells"] == [cell]
    # As a form field too.
    form = client.post("/api/solve", data={"puzzle": givens, "explain": "true"}).json()
    assert form["grids"][0]["solution"] == solution and len(form["grids"][0]["steps"]) > 0


@pytest.mark.parametrize(
    "name, status, words",
    [
        ("empty.jpg", 422, "empty"),
        ("huge_header.png", 413, "100 megapixels"),
        ("random_bytes.png", 422, "not a readable image"),
        ("text_named.jpg", 422, "not a readable image"),
        ("truncated.jpg", 422, "not a readable image"),
        ("not_a_pdf.pdf", 422, "not a readable image"),
        ("no_grid.jpg", 200, None),
    ],
)
def test_bad_inputs(client, name, status, words):
    response = upload(client, BAD / name)
    assert response.status_code == status, response.text
    data = response.json()
    if words:
        assert list(data) == ["detail"] and words in data["detail"] and "Traceback" not in data["detail"]
    else:
        assert data["error"] == "no Sudoku grid found in the image" and data["grids"] == [] and data["image"] is None


def test_bad_puzzle_lines(client):
    for line in (BAD / "bad_puzzles.txt").read_text().splitlines():
        response = client.post("/api/solve", json={"puzzle": line})  # none is a puzzle: 422 with the reason
        assert response.status_code == 422 and response.json()["detail"].startswith("not a puzzle: "), line


def test_bad_requests(client):
    assert client.post("/api/solve", content=b"x", headers={"content-type": "text/plain"}).status_code == 415
    assert client.post("/api/solve", content=b"{nope", headers={"content-type": "application/json"}).status_code == 400
    assert client.post("/api/solve", json={"hint": True}).status_code == 400
    no_file = client.post("/api/solve", data={"hint": "true"})
    assert no_file.status_code == 400 and "image" in no_file.json()["detail"]
    assert client.get("/api/generate?level=impossible").status_code == 422
    assert client.get("/api/generate?count=99").status_code == 422


def test_oversized_upload_refused_and_nothing_left(client):
    big = io.BytesIO(b"\xff\xd8" + b"\0" * (MAX_UPLOAD_BYTES + 1000))
    response = client.post("/api/solve", files={"image": ("big.jpg", big, "image/jpeg")})
    assert response.status_code == 413 and "20 MB" in response.json()["detail"]
    root = Path(client.app.state.work.root)
    assert root.is_dir() and oct(root.stat().st_mode & 0o777) == "0o700"
    assert list(root.iterdir()) == []  # every request's folder removed after its answer


def test_generate_pdf(client):
    response = client.get("/api/generate?level=easy&count=2&seed=3")
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_concurrent_requests(client):
    """Photos and puzzles at once: every answer right, none mixed up with another."""
    givens = dat_givens(SAMPLES / "image1.dat")
    jobs = [("photo", IMAGE1)] * 4 + [("photo", IN_PROGRESS)] * 2 + [("puzzle", givens)] * 4

    def send(job):
        kind, what = job
        if kind == "photo":
            return upload(client, what).json()
        return client.post("/api/solve", json={"puzzle": what}).json()

    with ThreadPoolExecutor(len(jobs)) as pool:
        results = list(pool.map(send, jobs))
    in_progress_givens = cells_label(SAMPLES / "02_25_honor_view_10_0.cells")[0]
    for (kind, what), data in zip(jobs, results):
        assert data["error"] is None, data
        grid = data["grids"][0]
        expected = givens if kind == "puzzle" or what == IMAGE1 else in_progress_givens
        assert grid["givens"] == expected and valid_solution(expected, grid["solution"])
    assert client.get("/api/health").json()["pending"] == 0


def test_time_limit_stops_the_request_not_the_server(tmp_path):
    import cv2

    slow = tmp_path / "big.png"  # a PNG of 24 megapixels: decoding alone takes longer than the limit
    image = cv2.resize(cv2.imread(str(IMAGE1)), (5600, 4200), interpolation=cv2.INTER_LINEAR)
    cv2.imwrite(str(slow), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    with TestClient(create_app(Settings(workers=1, timeout=0.05))) as c:
        response = upload(c, slow)
        assert response.status_code == 504 and "limit" in response.json()["detail"]
        assert c.get("/api/health").status_code == 200


def test_announce_lan_address_and_warning(monkeypatch):
    pytest.importorskip("segno")
    import snapsolve.web as web

    monkeypatch.setattr(web, "lan_address", lambda: "192.168.1.20")
    out = io.StringIO()
    assert announce("0.0.0.0", 8000, out) == "http://192.168.1.20:8000/"
    text = out.getvalue()
    assert "http://192.168.1.20:8000/" in text and "warning" in text and "█" in text  # the QR code
    out = io.StringIO()
    assert announce("127.0.0.1", 8000, out) == "http://127.0.0.1:8000/" and "warning" not in out.getvalue()


def test_cli_has_serve():
    from snapsolve.cli import build_parser

    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)


# ---- the page in a phone-size browser ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """``snapsolve serve`` in its own process on a free port; stopped by its process id."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "snapsolve", "serve", "--port", str(port), "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(url + "api/health", timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("snapsolve serve stopped: " + proc.stderr.read().decode()[-2000:])
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_phone_page_in_chromium(server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    shots = Path(os.environ.get("SNAPSOLVE_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    expected = json.loads(
        urllib.request.urlopen(
            urllib.request.Request(
                server + "api/solve",
                data=json.dumps({"puzzle": dat_givens(SAMPLES / "image1.dat"), "explain": True}).encode(),
                headers={"content-type": "application/json"},
            )
        ).read()
    )["grids"][0]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page(
                viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
            )
            page.goto(server)
            assert page.locator("#camera").get_attribute("capture") == "environment"
            page.set_input_files("#file", str(IMAGE1))
            page.wait_for_selector("#level", timeout=30000)
            assert page.text_content("#level") == expected["level"]
            assert f"score {expected['score']}" in page.text_content("#summary")
            cells = page.eval_on_selector_all("#grid input", "els => els.map(e => e.value || e.placeholder)")
            assert "".join(cells) == expected["solution"]  # givens as read, the answers in every other cell
            assert page.eval_on_selector("#photo", "img => img.naturalWidth") == 640
            page.screenshot(path=str(shots / "web-phone-solved.png"), full_page=True)

            for n in range(3):  # three hints, each said in words and drawn on the photo and the grid
                page.click("#next")
                step = expected["steps"][n]
                assert page.text_content("#step-text") == f"Step {n + 1} of {len(expected['steps'])}: {step['text']}"
                assert page.locator("#overlay polygon").count() == len(step["cells"])
                for cell, digit in step["placements"]:
                    box = page.locator(f'#grid input[data-cell="{cell}"]')
                    assert box.get_attribute("placeholder") == str(digit) and "now" in box.get_attribute("class")
            page.screenshot(path=str(shots / "web-phone.png"), full_page=True)
            page.click("#prev")
            assert page.text_content("#step-text").startswith(f"Step 2 of {len(expected['steps'])}")

            # Correct a cell: give the first empty cell its digit, say it is printed, solve again; the puzzle sent
            # has it.
            cell = expected["givens"].index(".")
            box = page.locator(f'#grid input[data-cell="{cell}"]')
            box.fill(expected["solution"][cell])
            page.check("#kind-printed")  # a cell read as empty is taken as written by hand unless told
            with page.expect_response("**/api/solve") as answer:
                page.click("#resolve")
            resent = answer.value.json()["grids"][0]
            assert resent["givens"][cell] == expected["solution"][cell] and resent["solution"] == expected["solution"]
            page.wait_for_function("document.querySelector('#step-text').textContent.includes('logical steps')")
            assert "edited" in box.get_attribute("class") and box.input_value() == expected["solution"][cell]
            # the new answer drawn on the photo, one digit in each cell still empty
            assert page.locator("#overlay text").count() == resent["givens"].count(".")
            page.click("#check")
            assert "Nothing is written" in page.text_content("#check-text")
            page.screenshot(path=str(shots / "web-phone-corrected.png"), full_page=True)

            # A puzzle in progress: "check my entries" counts what was written and finds no mistake.
            page.set_input_files("#file", str(IN_PROGRESS))
            page.wait_for_function(
                "document.querySelector('#summary').textContent.includes('filled in')", timeout=30000
            )
            givens, entries = cells_label(SAMPLES / "02_25_honor_view_10_0.cells")
            written = 81 - entries.count(".")
            page.click("#check")
            assert page.text_content("#check-text") == f"{written} of {givens.count('.')} cells filled in, no mistakes."
            assert page.locator("#grid input.entry").count() == written
        finally:
            browser.close()


# ---- issue 24 on the page: a corrected cell's kind, no grid found, unclear handwriting ----------------------------


def cell_name(c: int) -> str:
    return f"r{c // 9 + 1}c{c % 9 + 1}"


@contextmanager
def phone(server):
    """A page of `server` in Chromium at phone size (390 x 844, touch)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            page = browser.new_page(
                viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
            )
            page.goto(server)
            yield page
        finally:
            browser.close()


def keep_screenshot(page, name: str):
    """A full-page screenshot in $SNAPSOLVE_SCREENSHOTS, when set."""
    if os.environ.get("SNAPSOLVE_SCREENSHOTS"):
        page.screenshot(path=str(Path(os.environ["SNAPSOLVE_SCREENSHOTS"]) / name), full_page=True)


def post_json(server: str, body: dict) -> dict:
    request = urllib.request.Request(
        server + "api/solve", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    return json.loads(urllib.request.urlopen(request, timeout=120).read())


@pytest.fixture(scope="module")
def image1_read(server):
    """The server's real answer for samples/image1.jpg (explain, photo), as the page gets it."""
    import httpx

    with open(IMAGE1, "rb") as fh:
        response = httpx.post(
            server + "api/solve",
            files={"image": ("image1.jpg", fh, "image/jpeg")},
            data={"explain": "true", "photo": "true"},
            timeout=120,
        )
    assert response.status_code == 200
    return response.json()


def in_progress(server: str, read: dict, entries: dict[int, int], unclear: list[dict] = ()) -> dict:
    """`read` turned into a puzzle in progress: `entries` {cell: digit} read for sure, `unclear` entries as the
    reader will list them. Steps, mistakes and progress are the server's own for the entries read for sure."""
    grid = read["grids"][0]
    sure = "".join(str(entries.get(c, ".")) for c in range(81))
    answer = post_json(server, {"puzzle": f"{grid['givens']} {sure}", "explain": True})["grids"][0]
    mock = json.loads(json.dumps(read))
    out = mock["grids"][0]
    shown = {**entries, **{u["cell"]: u["read"] for u in unclear}}
    out.update(
        entries="".join(str(shown.get(c, ".")) for c in range(81)),
        mistakes=answer["mistakes"],
        progress=answer["progress"],
        steps=answer["steps"],
        unclear_entries=list(unclear),
    )
    return mock


def answer_photos_with(page, result: dict):
    """Photos sent by the page get `result`; puzzles solved again still go to the real server."""

    def handle(route):
        if "multipart/form-data" in (route.request.headers.get("content-type") or ""):
            route.fulfill(json=result)
        else:
            route.continue_()

    page.route("**/api/solve", handle)


def sent_puzzle(request) -> tuple[str, str]:
    givens, entries = request.post_data_json["puzzle"].split()
    return givens, entries


def cell_box(page, c: int):
    return page.locator(f'#grid input[data-cell="{c}"]')


def test_phone_corrected_cell_keeps_its_kind(server, image1_read):
    grid = image1_read["grids"][0]
    solution = grid["solution"]
    empty = [c for c in range(81) if grid["givens"][c] == "."]
    wrote, read_as_written, filled, filled_printed = empty[:4]
    mock = in_progress(
        server, image1_read, {wrote: int(solution[wrote]), read_as_written: int(solution[read_as_written])}
    )
    wrong = int(solution[wrote]) % 9 + 1
    with phone(server) as page:
        answer_photos_with(page, mock)
        page.set_input_files("#file", str(IMAGE1))
        page.wait_for_selector("#level")
        assert "entry" in cell_box(page, wrote).get_attribute("class")
        assert page.locator("#kind").is_hidden()

        # A handwritten digit corrected stays handwritten: blue, not bold, the toggle on "Written by hand".
        cell_box(page, wrote).click()
        assert page.locator("#kind").is_visible() and page.is_checked("#kind-hand")
        assert page.text_content("#kind-label") == f"{cell_name(wrote)}: this {solution[wrote]} is"
        cell_box(page, wrote).fill(str(wrong))
        classes = cell_box(page, wrote).get_attribute("class").split()
        assert "entry" in classes and "given" not in classes and "edited" in classes
        assert cell_box(page, wrote).evaluate("e => getComputedStyle(e).fontWeight") == "400"
        assert page.is_checked("#kind-hand")

        # A cell read as empty, filled in: written by hand unless the player says printed.
        cell_box(page, filled).fill(solution[filled])
        assert "entry" in cell_box(page, filled).get_attribute("class") and page.is_checked("#kind-hand")
        cell_box(page, filled_printed).fill(solution[filled_printed])
        page.check("#kind-printed")
        assert "given" in cell_box(page, filled_printed).get_attribute("class")
        assert cell_box(page, filled_printed).evaluate("e => getComputedStyle(e).fontWeight") == "700"

        # A digit read as written that is printed: only its kind changes.
        cell_box(page, read_as_written).click()
        assert page.is_checked("#kind-hand")
        page.check("#kind-printed")
        assert "given" in cell_box(page, read_as_written).get_attribute("class")
        assert cell_box(page, read_as_written).input_value() == solution[read_as_written]
        keep_screenshot(page, "web-phone-kind.png")

        with page.expect_request("**/api/solve") as sent, page.expect_response("**/api/solve") as answer:
            page.click("#resolve")
        givens, entries = sent_puzzle(sent.value)
        assert entries[wrote] == str(wrong) and givens[wrote] == "."
        assert entries[filled] == solution[filled] and givens[filled] == "."
        assert givens[filled_printed] == solution[filled_printed] and entries[filled_printed] == "."
        assert givens[read_as_written] == solution[read_as_written] and entries[read_as_written] == "."
        resent = answer.value.json()["grids"][0]
        mistake = {"cell": wrote, "entry": wrong, "solution": int(solution[wrote])}
        assert resent["mistakes"] == [dict(mistake, entered=wrong)]  # entered: the deprecated name of entry
        page.wait_for_function("document.querySelector('#step-text').textContent.includes('mistakes')")
        # after solving again each cell shows the kind it was given
        assert "entry" in cell_box(page, filled).get_attribute("class")
        assert "given" in cell_box(page, filled_printed).get_attribute("class")
        page.click("#check")
        assert page.text_content("#check-text") == (
            f"1 mistake: {cell_name(wrote)} has {wrong}, the solution has {solution[wrote]}."
        )
        assert "mistake" in cell_box(page, wrote).get_attribute("class")


def test_phone_no_grid_suggests_retaking(server):
    givens = dat_givens(SAMPLES / "image1.dat")
    with phone(server) as page:
        page.set_input_files("#file", str(BAD / "no_grid.jpg"))
        page.wait_for_selector("#no-grid", state="visible", timeout=30000)
        tips = page.text_content("#no-grid")
        assert "No Sudoku grid found" in tips
        assert all(words in tips for words in ("flat", "whole grid", "light", "shadow"))
        assert page.locator("#result").is_hidden() and page.locator("#error").is_hidden()
        # The retake comes first and is the main action; typing the puzzle in is offered after it.
        buttons = page.locator("#no-grid button")
        assert buttons.all_text_contents() == ["Retake photo", "Type the puzzle in instead"]
        assert "primary" in buttons.nth(0).get_attribute("class")
        keep_screenshot(page, "web-phone-no-grid.png")

        # "Retake photo" opens the camera; the new photo is read and the tips go.
        with page.expect_file_chooser() as chooser:
            page.click("#retake")
        assert chooser.value.element.get_attribute("id") == "camera"
        chooser.value.set_files(str(IMAGE1))
        page.wait_for_selector("#level", timeout=30000)
        assert page.locator("#no-grid").is_hidden()

        # A server that answers "no grid" with an error status gets the same tips.
        page.route(
            "**/api/solve",
            lambda route: route.fulfill(status=422, json={"detail": "no Sudoku grid found in the image"}),
        )
        page.set_input_files("#file", str(BAD / "no_grid.jpg"))
        page.wait_for_selector("#no-grid", state="visible")
        assert page.locator("#result").is_hidden()
        page.unroute("**/api/solve")

        # Typing the puzzle in: an empty grid where every digit typed is printed.
        page.click("#type-in")
        assert page.locator("#no-grid").is_hidden() and page.locator("#figure").is_hidden()
        assert page.eval_on_selector_all("#grid input", "els => els.map(e => e.value).join('')") == ""
        for c, d in enumerate(givens):
            if d != ".":
                cell_box(page, c).fill(d)
        assert page.locator("#grid input.given").count() == 81 - givens.count(".")
        assert page.locator("#grid input.entry").count() == 0
        # A slip that breaks a rule: the server's reason is shown and the typed grid stays, to correct it.
        slip = givens.index(".")
        twice = next(d for d in givens[slip - slip % 9 : slip - slip % 9 + 9] if d != ".")
        cell_box(page, slip).fill(twice)
        with page.expect_response("**/api/solve"):
            page.click("#resolve")
        page.wait_for_selector("#error", state="visible")
        assert "appears twice" in page.text_content("#error") and page.locator("#result").is_visible()
        assert cell_box(page, slip).input_value() == twice
        cell_box(page, slip).fill("")
        with page.expect_request("**/api/solve") as sent:
            page.click("#resolve")
        assert sent_puzzle(sent.value) == (givens, "." * 81)
        page.wait_for_selector("#level")
        assert page.locator("#grid input.given").count() == 81 - givens.count(".")


def test_phone_unclear_entries_are_questions(server, image1_read):
    grid = image1_read["grids"][0]
    solution = grid["solution"]
    empty = [c for c in range(81) if grid["givens"][c] == "."]
    misread, right, clear1, clear2 = empty[:4]
    s_misread, s_right = int(solution[misread]), int(solution[right])
    read_misread = s_misread % 9 + 1  # read as the wrong digit, the right one an alternative
    other_right = s_right % 9 + 1  # read right, another digit an alternative
    unclear = [
        {"cell": misread, "read": read_misread, "alternatives": [s_misread]},
        {"cell": right, "read": s_right, "alternatives": [other_right]},
    ]
    mock = in_progress(server, image1_read, {clear1: int(solution[clear1]), clear2: int(solution[clear2])}, unclear)
    article = lambda d: f"an {d}" if d == 8 else f"a {d}"  # noqa: E731
    question = f"{cell_name(misread)}: is this {article(read_misread)} or {article(s_misread)}?"
    with phone(server) as page:
        answer_photos_with(page, mock)
        page.set_input_files("#file", str(IMAGE1))
        page.wait_for_selector("#level")
        # Amber, never red; drawn on the photo as a dashed amber ring; the next step is not blocked.
        assert page.locator("#grid input.unclear").count() == 2 and page.locator("#grid input.mistake").count() == 0
        box = cell_box(page, misread)
        assert box.input_value() == str(read_misread) and box.get_attribute("title") == question
        assert box.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(254, 243, 199)"
        assert page.locator("#overlay circle.unclear").count() == 2
        assert "not read for sure" in page.text_content("#step-text")
        assert page.is_enabled("#next")
        page.click("#next")
        assert page.text_content("#step-text").startswith(f"Step 1 of {len(mock['grids'][0]['steps'])}: ")
        page.click("#prev")

        page.click("#check")
        text = page.text_content("#check-text")
        assert question in text and "wrong" not in text and "1 mistake" not in text
        assert "no mistakes among the digits read for sure" in text
        assert page.locator("#grid input.mistake").count() == 0
        keep_screenshot(page, "web-phone-unclear.png")

        # Tap: the choice, without the keyboard. The answer is a confirmed entry, checked again at once;
        # the other unclear digit is not sent as if it were sure.
        box.click()
        assert box.evaluate("e => e.readOnly")
        assert page.text_content("#confirm-text") == question
        assert page.locator("#confirm-choices button").all_text_contents() == [
            str(read_misread),
            str(s_misread),
            "Other…",
        ]
        keep_screenshot(page, "web-phone-confirm.png")
        with page.expect_request("**/api/solve") as sent:
            page.click(f'#confirm-choices button[aria-label="It is {article(s_misread)}"]')
        givens, entries = sent_puzzle(sent.value)
        assert entries[misread] == str(s_misread) and entries[right] == "."
        assert entries[clear1] == solution[clear1] and givens == grid["givens"]
        page.wait_for_function(
            "q => { const t = document.querySelector('#check-text').textContent;"
            " return t.includes('is this') && !t.includes(q); }",
            arg=question,
        )
        classes = box.get_attribute("class").split()
        assert "unclear" not in classes and "entry" in classes and box.input_value() == str(s_misread)
        assert page.locator("#grid input.unclear").count() == 1
        assert "no mistakes among the digits read for sure" in page.text_content("#check-text")
        assert f"{cell_name(right)}: is this" in page.text_content("#check-text")

        # "Other…" offers the remaining digits; a confirmed digit is checked for sure: a wrong one is a mistake.
        cell_box(page, right).click()
        page.click("#confirm-choices button:has-text('Other')")
        offered = page.locator("#confirm-choices button").all_text_contents()
        assert sorted(offered) == sorted(str(d) for d in range(1, 10) if d not in (s_right, other_right))
        wrong = next(d for d in range(1, 10) if d not in (s_right, other_right))
        page.click(f'#confirm-choices button[aria-label="It is {article(wrong)}"]')
        page.wait_for_function("document.querySelector('#check-text').textContent.includes('1 mistake')")
        assert page.text_content("#check-text") == (
            f"1 mistake: {cell_name(right)} has {wrong}, the solution has {s_right}."
        )
        assert page.locator("#grid input.unclear").count() == 0
        assert "mistake" in cell_box(page, right).get_attribute("class")


def test_phone_question_step_and_older_results(server, image1_read):
    """A step of technique "question" reads as a question; a result without unclear_entries has none."""
    mock = json.loads(json.dumps(image1_read))
    grid = mock["grids"][0]
    cell = grid["givens"].index(".")
    grid["steps"].insert(
        0,
        {
            "technique": "question",
            "placements": [],
            "eliminations": [],
            "cells": [cell],
            "text": f"{cell_name(cell)}: is this an 8 or a 9?",
        },
    )
    grid.pop("unclear_entries", None)
    with phone(server) as page:
        answer_photos_with(page, mock)
        page.set_input_files("#file", str(IMAGE1))
        page.wait_for_selector("#level")
        assert page.locator("#grid input.unclear").count() == 0
        assert "not read for sure" not in page.text_content("#step-text")
        page.click("#next")
        text = page.text_content("#step-text")
        assert text.startswith(f"Step 1 of {len(grid['steps'])}: {cell_name(cell)}: is this an 8 or a 9?")
        assert "not a mistake" in text and "wrong" not in text


def test_phone_steps_draw_small_beside_pencil_marks(server, image1_read):
    """A digit placed in a cell with pencilled candidates is drawn small in the cell's lower right (as the command's
    image draws it), in the step view and in the whole answer the page draws; other cells' digits stay large."""
    mock = json.loads(json.dumps(image1_read))
    grid = mock["grids"][0]
    first, second = grid["steps"][0]["placements"][0][0], grid["steps"][1]["placements"][0][0]
    grid["pencil_marks"] = [{"cell": first, "digits": "58"}]
    mock["image"] = None  # the page draws the answer itself
    quads = grid["cell_quads"]

    def drawn(page, cell: int) -> dict:
        text = page.locator(f'#overlay text[data-cell="{cell}"]').last
        quad = quads[cell]
        height = (abs(quad[3][1] - quad[0][1]) + abs(quad[2][1] - quad[1][1])) / 2
        x, y = (sum(p[0] for p in quad) / 4, sum(p[1] for p in quad) / 4)
        return {
            "small": "small" in text.get_attribute("class").split(),
            "size": float(text.get_attribute("font-size")) / height,  # of the cell's height
            "right": (float(text.get_attribute("x")) - x) / height,  # of the cell's height, from its centre
            "down": (float(text.get_attribute("y")) - y) / height,
        }

    with phone(server) as page:
        answer_photos_with(page, mock)
        page.set_input_files("#file", str(IMAGE1))
        page.wait_for_selector("#level")
        whole = drawn(page, first)
        assert whole["small"] and 0.1 < whole["right"] < 0.25 and 0.1 < whole["down"] < 0.25, whole
        assert not drawn(page, second)["small"]
        assert whole["size"] == pytest.approx(0.7 * 0.4 / 0.55, rel=0.01) and drawn(page, second)["size"] == (
            pytest.approx(0.7, rel=0.01)
        )
        page.click("#next")  # step 1 places its digit in the pencilled cell
        now = drawn(page, first)
        assert now["small"] and now["size"] == pytest.approx(0.75 * 0.4 / 0.55, rel=0.01) and now["right"] > 0.1
        keep_screenshot(page, "web-phone-pencil-step.png")
        page.click("#next")  # step 2: another cell, full size; step 1's digit stays small
        assert not drawn(page, second)["small"] and drawn(page, second)["size"] == pytest.approx(0.75, rel=0.01)
        assert drawn(page, first)["small"]

        # The sample in progress as the server reads it: its pencilled cells' digits are small when a step fills them.
        page.unroute("**/api/solve")
        with page.expect_response("**/api/solve") as answer:
            page.set_input_files("#file", str(IN_PROGRESS))
        real = answer.value.json()["grids"][0]
        page.wait_for_function("document.querySelector('#summary').textContent.includes('filled in')")
        pencil = {m["cell"] for m in real["pencil_marks"]}
        quads = real["cell_quads"]
        at = next(n for n, step in enumerate(real["steps"]) if any(c in pencil for c, _ in step["placements"]))
        for _ in range(at + 1):
            page.click("#next")
        filled = next(c for c, _ in real["steps"][at]["placements"] if c in pencil)
        assert drawn(page, filled)["small"]
        keep_screenshot(page, "web-phone-pencil-step-in-progress.png")


def test_phone_shows_the_largest_grid_of_a_page(server, image1_read):
    """A page's grids come in reading order; the page shows the largest (the photo's main grid), not the first."""
    mock = json.loads(json.dumps(image1_read))
    main = mock["grids"][0]
    corner = [[2, 2], [60, 2], [60, 60], [2, 60]]  # a small grid above and left of the main one: read first
    other = dict(main, corners=corner, cell_quads=[corner] * 81, level="easy", givens="1" + main["givens"][1:])
    mock["grids"] = [other, main]
    with phone(server) as page:
        answer_photos_with(page, mock)
        page.set_input_files("#file", str(IMAGE1))
        page.wait_for_selector("#level")
        assert page.text_content("#level") == main["level"] != "easy"
        shown = page.eval_on_selector_all("#grid input", "els => els.map(e => e.value || '.').join('')")
        assert shown == main["givens"]


def test_phone_finished_grid_says_solved_and_rings_a_wrong_entry_with_its_right_digit(server):
    """A finished grid whose every entry is right says so; one with a wrong entry rings it, the right digit half a
    cell tall beside the ring, at the cell's corner, clear of the ring (drawn by the page over the photo)."""
    finished = FIXTURES / "finished"
    with phone(server) as page:
        page.set_input_files("#file", str(finished / "finished_seed12004_18.jpg"))
        page.wait_for_function("document.querySelector('#summary').textContent.includes('entries')", timeout=60000)
        assert page.text_content("#summary").endswith(" · solved: all 46 entries are right")
        page.click("#check")
        assert page.text_content("#check-text") == "Solved: all 46 entries are right."

        page.set_input_files("#file", str(finished / "finished_seed12004_6.jpg"))
        page.wait_for_function("document.querySelector('#step-text').textContent.includes('mistakes')", timeout=60000)
        page.uncheck("#show-solution")  # the photo as taken, the page's own drawing over it
        page.click("#check")
        assert page.text_content("#check-text") == "1 mistake: r5c2 has 8, the solution has 9."
        ring, digit = page.locator("#overlay circle.mistake"), page.locator("#overlay text.right-digit")
        assert ring.count() == 1 and digit.text_content() == "9"
        cx, cy, r = (float(ring.get_attribute(k)) for k in ("cx", "cy", "r"))
        outer = r + float(ring.get_attribute("stroke-width")) / 2
        box = digit.evaluate("e => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; }")
        near = (min(max(cx, box[0]), box[0] + box[2]) - cx, min(max(cy, box[1]), box[1] + box[3]) - cy)
        assert (near[0] ** 2 + near[1] ** 2) ** 0.5 > outer  # the digit's box lies wholly outside the ring
        assert float(digit.get_attribute("font-size")) >= 0.6 * r / 0.4  # its glyph over 40% of the cell
        keep_screenshot(page, "web-phone-finished-mistake.png")

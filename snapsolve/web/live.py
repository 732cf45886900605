"""The live camera: ``/api/live``, a WebSocket taking the phone's frames and answering each with its reading.

Protocol
--------
The client sends each frame as one binary message (a JPEG of about
`frames.FRAME_SIDE` pixels on its longer side; at most MAX_FRAME_BYTES), and
may send the text message ``{"reset": true}`` to drop the lock. The server
numbers the binary messages it receives (1, 2, ...) and answers frames, each
with one JSON text message::

    {"frame": 12, "received": 14, "dropped": 3, "seconds": 0.031, "cpu_seconds": 0.029,
     "frame_size": [640, 480], "error": null,
     "grid": null | {"corners", "rotation", "cell_quads", "givens", "status",
                     "solution", "entries", "mistakes", "unclear_entries", ...},
     "locked": true, "streak": 5, "lock_frames": 3, "follows": true, "followed": true}

``frame`` is the number of the frame answered, ``received`` how many came in
so far, ``dropped`` how many were skipped in all (stale), ``seconds`` the
worker's time on the frame (``cpu_seconds`` its processor time). ``grid``
is the frame's main grid (the grid object of ``docs/DESIGN.md`` with
``cell_quads``, coordinates in the frame's pixels) or null when none is in
view. Once locked, ``grid`` carries the
locked ``givens`` and ``solution`` whenever the frame shows the same puzzle
(``follows``), however blurred the frame's own digits are. ``followed`` says
how the answer was made: true when the frame was only followed (its grid
found again near the frame before and its cells' ink checked, see "Follow"
below), false when it was read in full. A followed frame's ``grid`` has the
frame's ``corners``, ``rotation`` and ``cell_quads`` and the locked
reading's ``givens``, ``solution``, ``status``, ``level``, ``score``,
``needs_search``, ``entries``, ``pencil_marks``, ``mistakes``,
``unclear_entries`` and ``progress`` (those of its last full reading),
nothing else.

Flow
----
At most one frame per connection is in a worker at a time; frames that come
in meanwhile wait in a one-frame slot where the latest replaces the one
before (`LatestFrame`): latency never builds up, and the stale frames are
counted in ``dropped``. The frames of all connections go through the server's
one worker pool, in arrival order; as each connection has at most one frame
there, connections take turns (round robin) and a busy one cannot starve the
others. Frames do not count towards ``Settings.max_pending`` (the bound of
``/api/solve``): each connection holds at most one place in the pool.

Lock
----
`LiveLock`: the reading locks once the same solved givens were read in
LOCK_FRAMES frames in a row (3: about 0.2 s at 15 frames a second; one misread
frame seldom repeats three times). Locked, each frame that shows the same
puzzle (its printed digits differ from the locked ones in at most
FOLLOW_CELLS cells, the damage a blurred frame does) is answered with the
locked solution at the frame's own corners. A different puzzle read solved
LOCK_FRAMES times in a row takes the lock over; frames with no grid keep it.
While the frames follow the lock, the next one is read at the locked grid's
rotation (no orientation search: about half of a frame's reading); a frame
that does not follow sends the next one back to deciding it.

The lock's state is typed: the reading locked on is a
`results.LockedReading`, what the next frame is followed from an `Anchor`,
what a frame did to the lock a `LockView`; the answer is a
`results.LiveAnswer`, whose JSON is made in `snapsolve.results` (the worker's
own part, the frame's grid object, comes from `results.FrameResult`).

Follow
------
A full reading takes 100 to 200 ms of a worker; a locked grid is followed
instead (`frames.follow_frame`, some 10 to 15 ms): its outline is found again
within `vision.follow.FOLLOW_SHIFT` of a side of where it was in the frame
before, the ink in the middle of its 81 cells must match the last full
reading's (`vision.follow.same_cells`: no cell gained or lost a mark, and the
ink amounts correlate), and the answer is the locked reading at the new
corners (``followed``: true). Only a full reading of exactly the locked givens
starts following (its corners and cells' ink are the anchor). A frame that
cannot be followed (the outline lost or moved too far, a cell changed: a new
entry, another puzzle) is read in full at once, in the same task; when that
reading shows another puzzle, or the locked one with more than FOLLOW_CELLS
cells read differently, the frames after it are read in full until one reads
the locked givens again (a frame with no grid, or the locked puzzle blurred,
lets the next frame try to follow again from the last corners); and
every FULL_READ_EVERY followed frames, one is read in full anyway (what the
cells' ink misses, such as pencil marks or an entry written over, and a
misread lock are found within about 3 s; each full reading holds the
connection's next frame up, so it is not done more often).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..errors import kind_of
from ..frames import follow_task, frame_task
from ..results import LiveAnswer, LockedReading, skipped_frame_json
from .errors import internal_error
from .pool import work_of

#: Frames in a row with the same solved givens that lock the reading.
LOCK_FRAMES = 3
#: Cells whose printed digit may differ from the locked puzzle in a frame that still shows it.
FOLLOW_CELLS = 4
#: Frames followed (`frames.follow_frame`) at most between two full readings of a locked grid (3 s at 30 a second).
FULL_READ_EVERY = 90
#: Largest frame accepted, in bytes (a 640 px JPEG is some 30 to 80 KB).
MAX_FRAME_BYTES = 2 * 1024 * 1024
#: Seconds one frame may take in a worker before it is stopped.
FRAME_TIMEOUT = 10.0


class LatestFrame:
    """A one-frame slot: `put` never waits and replaces a frame not yet taken (latest frame wins).

    Attributes
    ----------
    received : int
        Frames put so far; each frame's number is its position in this count (from 1).
    dropped : int
        Frames replaced before they were taken (stale).
    """

    def __init__(self):
        self._frame: tuple[int, bytes] | None = None
        self._ready = asyncio.Event()
        self._closed = False
        self.received = 0
        self.dropped = 0

    def put(self, data: bytes) -> int:
        """Offer a frame; returns its number."""
        self.received += 1
        if self._frame is not None:
            self.dropped += 1
        self._frame = (self.received, data)
        self._ready.set()
        return self.received

    async def get(self) -> tuple[int, bytes] | None:
        """The latest frame not yet taken, waiting for one; None once closed and empty."""
        while self._frame is None:
            if self._closed:
                return None
            self._ready.clear()
            await self._ready.wait()
        frame, self._frame = self._frame, None
        return frame

    def close(self) -> None:
        """No more frames: `get` returns what is left, then None."""
        self._closed = True
        self._ready.set()

    def discard(self) -> None:
        """Drop the frame not yet taken, if any (counted in `dropped`): its answer has nobody to go to."""
        if self._frame is not None:
            self._frame = None
            self.dropped += 1


def _differing(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b))


@dataclass(frozen=True)
class Anchor:
    """What the next frame of a locked view is followed from (`frames.follow_frame`).

    Attributes
    ----------
    corners : list
        The grid's corners in the frame before, 4 x [x, y] pixels (TL TR BR BL as seen), as in the grid's JSON.
    ink : list of float
        The ink of its 81 cells at the last full reading of exactly the locked givens (`vision.follow.cell_ink`).
    rotation : int
        Degrees (0, 90, 180, 270) the locked grid is read at.
    """

    corners: list
    ink: list
    rotation: int

    @classmethod
    def of(cls, answer: dict, rotation: int) -> Anchor:
        """The anchor of a worker's answer (its ``anchor``: ``corners`` and ``ink``) at `rotation`."""
        return cls(answer["corners"], answer["ink"], rotation)

    def task_args(self) -> tuple[dict, int]:
        """The anchor and rotation as `frames.follow_task` takes them."""
        return {"corners": self.corners, "ink": self.ink}, self.rotation


@dataclass(frozen=True)
class LockView:
    """What one frame did to the lock: the answer's ``grid``, ``locked``, ``streak``, ``follows``, ``lock_frames``.

    Attributes
    ----------
    grid : dict or None
        The frame's grid object; given the locked reading when it follows it.
    locked : bool
        A reading is locked.
    streak : int
        Frames in a row read the same, solved.
    follows : bool
        The frame shows the locked puzzle.
    lock_frames : int
        Frames in a row that lock.
    """

    grid: dict | None
    locked: bool
    streak: int
    follows: bool
    lock_frames: int


class LiveLock:
    """The lock of one connection: which puzzle is in view, once read the same way LOCK_FRAMES times in a row.

    Parameters
    ----------
    frames : int
        Frames in a row that lock (LOCK_FRAMES).

    Attributes
    ----------
    locked : LockedReading or None
        The reading locked on, None before a lock.
    streak : int
        Frames in a row read the same, solved.
    rotation : int or None
        The rotation of the last frame that followed the lock.
    anchor : Anchor or None
        What the next frame is followed from.
    since_read : int
        Frames followed (or showing no grid) since the last full reading of exactly the locked givens.
    """

    def __init__(self, frames: int = LOCK_FRAMES):
        self.frames = frames
        self.reset()

    def reset(self) -> None:
        """Forget the lock, the streak and what frames are followed from."""
        self.locked: LockedReading | None = None
        self._candidate: str | None = None
        self.streak = 0
        self.rotation: int | None = None
        self.anchor: Anchor | None = None
        self.since_read = 0

    def hint(self) -> int | None:
        """The rotation to read the next frame at: the locked grid's while the frames follow it, else None (decide)."""
        return self.rotation

    def follow_from(self) -> Anchor | None:
        """The anchor to follow the next frame from (`frames.follow_frame`), or None: read it in full.

        The next frame is followed while the lock holds and an anchor is
        kept (`update` says which frames keep it), until FULL_READ_EVERY
        frames were followed (or showed no grid) since the last full reading
        of exactly the locked givens.
        """
        if self.locked is None or self.anchor is None:
            return None
        return self.anchor if self.since_read < FULL_READ_EVERY else None

    def _view(self, grid: dict | None, follows: bool) -> LockView:
        return LockView(grid, self.locked is not None, self.streak, follows, self.frames)

    def update(self, grid: dict | None, followed: bool = False, anchor: dict | None = None) -> LockView:
        """Take one frame's grid (or None); what it did to the lock.

        Parameters
        ----------
        grid : dict or None
            The frame's grid object (`frames.read_frame`), or with `followed`
            the followed frame's ``corners``, ``rotation``, ``cell_quads``
            (`frames.follow_frame`).
        followed : bool
            The frame was followed from the anchor, not read: it shows the
            locked puzzle, whose reading it is given.
        anchor : dict, optional
            The answer's ``anchor`` (``corners``, ``ink``): what the next
            frame may be followed from. A followed frame and a full reading
            of exactly the locked givens set it (the latter also starts the
            count to the next full reading); a reading that follows the lock
            only within FOLLOW_CELLS moves it to its corners and keeps the
            cells' ink of the last exact reading; a frame with no grid keeps
            it; any other frame drops it (the next frames are read in full).
            Frames with no grid count towards the next full reading as
            followed ones do.

        Returns
        -------
        LockView
            The frame's grid (given the locked puzzle's givens, solution and
            grade when it follows it) and the lock.

        Raises
        ------
        ValueError
            `followed` without a lock, or with no grid.
        """
        if followed:
            if self.locked is None or grid is None:
                raise ValueError("only a locked view follows a grid")
            self.since_read += 1
            self.anchor = Anchor.of(anchor, grid["rotation"]) if anchor is not None else None
            return self._view(self.locked.grid_json(grid), True)
        previous, self.anchor = self.anchor, None
        if grid is None:  # nothing read: the grid may come back where it was (counted towards the next full reading)
            self.anchor = previous
            self.since_read += previous is not None
        if grid is None or grid.get("status") != "solved":
            self._candidate, self.streak = None, 0
        else:
            givens = grid["givens"]
            self.streak = self.streak + 1 if givens == self._candidate else 1
            self._candidate = givens
            if self.streak >= self.frames and (self.locked is None or self.locked.givens != givens):
                self.locked = LockedReading.of(grid)
        follows = False
        self.rotation = None
        if self.locked is not None and grid is not None:
            if grid["givens"] == self.locked.givens and grid.get("status") == "solved":
                self.locked = self.locked.at_position(grid)
                follows = True
                if anchor is not None:  # a clean reading of the locked puzzle: follow it
                    self.anchor, self.since_read = Anchor.of(anchor, grid["rotation"]), 0
            elif _differing(grid["givens"], self.locked.givens) <= FOLLOW_CELLS:
                grid = self.locked.grid_json(grid)  # the frame's corners, the locked reading
                follows = True
                if previous is not None and anchor is not None:  # blurred: its corners, the clean reading's ink
                    self.anchor = Anchor(anchor["corners"], previous.ink, grid["rotation"])
        if follows and grid is not None:
            self.rotation = grid.get("rotation")
        return self._view(grid, follows)


router = APIRouter()


async def _read(pool, lock: LiveLock, data: bytes) -> tuple[dict, str | None]:
    """One frame through the pool: followed from the lock's anchor when it has one, else read in full.

    Returns the worker's answer (``{"grid": None}`` when it failed) and the error line for the client.
    """
    anchor = lock.follow_from()
    task: Callable[..., dict]
    args: tuple
    if anchor is not None:
        task, args = follow_task, (data, *anchor.task_args())
    else:
        task, args = frame_task, (data, lock.hint())
    try:
        return await asyncio.wrap_future(pool.schedule(task, args=args, timeout=FRAME_TIMEOUT)), None
    except concurrent.futures.TimeoutError:
        return {"grid": None}, f"the frame took longer than {FRAME_TIMEOUT:g} s and was skipped"
    except Exception as exc:
        if kind_of(exc).client_error:  # a frame that is no image (BadFrame): said as it is
            return {"grid": None}, str(exc)
        internal_error("a live frame", exc)  # a bug, a worker that died: logged with an error id
        return {"grid": None}, "reading the frame failed; the next one goes on"


@router.websocket("/api/live")
async def live(websocket: WebSocket):
    """Frames in (binary JPEG), one JSON answer per frame read; stale frames dropped (see `snapsolve.web.live`)."""
    await websocket.accept()
    slot, lock = LatestFrame(), LiveLock()

    async def receive() -> None:
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    slot.discard()  # the client is gone: no worker time on a frame nobody will see
                    return
                data, text = message.get("bytes"), message.get("text")
                if data is not None:
                    if len(data) > MAX_FRAME_BYTES:
                        await websocket.send_json(
                            skipped_frame_json(f"frame over {MAX_FRAME_BYTES // 2**20} MB skipped")
                        )
                        continue
                    slot.put(data)
                elif text:
                    try:
                        command = json.loads(text)
                    except ValueError:
                        command = None
                    if isinstance(command, dict) and command.get("reset"):
                        lock.reset()
        except (WebSocketDisconnect, RuntimeError):
            slot.discard()
            return
        finally:
            slot.close()

    receiver = asyncio.create_task(receive())
    pool = work_of(websocket.app).pool
    try:
        while (item := await slot.get()) is not None:
            number, data = item
            answer, error = await _read(pool, lock, data)
            followed = bool(answer.get("followed"))
            view = lock.update(answer.get("grid"), followed, answer.get("anchor"))
            reply = LiveAnswer(
                number,
                slot.received,
                slot.dropped,
                answer.get("seconds"),
                answer.get("cpu_seconds"),
                answer.get("frame_size"),
                error,
                followed,
                view.grid,
                view.locked,
                view.streak,
                view.follows,
                view.lock_frames,
            )
            await websocket.send_json(reply.to_json())
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        receiver.cancel()

#!/usr/bin/env python3
"""Generate synthetic multi-object tracking test sequences with exact ground truth.

Rectangular cut-outs of real objects (dogs, an owl, a person, a cat, a horse, a
bird, a portrait) from the shared test photos are moved over real backgrounds
(object-free regions of the same photos, mirror-tiled where needed) and written
as short H.264 videos.  Because every frame is rendered here, the ground truth
is exact: for each frame, each object's visible box and its ground-truth id.

Ground-truth rules
  * An object's box is the detector-style box of the object inside its cut-out
    (found once with the SSD MobileNet v1 COCO detector and hard-coded below),
    scaled and placed with the cut-out.
  * The box written is the *visible* part: clipped to the frame, and shrunk to
    the bounding box of the pixels that no nearer cut-out or foreground
    occluder covers.
  * An object whose visible fraction (visible pixels / full box area) is below
    ``MIN_VISIBLE`` (0.3) is left out of that frame's ground truth.
  * An object that left the frame (less than ``MIN_VISIBLE`` of its box inside
    the frame) and comes back gets a NEW id, as ML Kit's tracker gives a
    re-entering object a new tracking ID.  An object that was only hidden by an
    occluder while inside the frame keeps its id.

Every sequence is 640x360 at 30 fps; random elements (camera jitter) use fixed
seeds, so the output is deterministic.

Held-out variants (``--variant K``, K >= 1; K = 0 is the default set the tracker was
tuned on) change every sequence deterministically from K, keeping its scripted events
(crossings, occlusions, exits and re-entries):
  * odd K: the whole scene is mirrored left-right (frames and ground-truth boxes);
  * the script is played faster or slower by a factor from a K-seeded generator in
    [0.8, 1.25] (key frames and bobbing are time-scaled, the frame count follows, so every
    event still happens, only sooner or later and shorter or longer);
  * the background is another of the three; each pair of look-alike roles (the two dogs;
    the cat and the pony) and the two occluder textures are swapped with probability 1/2
    (a swapped-in cut-out keeps the role's box width, its height follows its own aspect
    ratio, so crossings, occluder passes and exits keep their timing);
  * each actor's start position (and any hold at the start) moves by up to
    +-START_SHIFT px, blending back into the unchanged later path;
  * camera jitter gets another seed.
The ground-truth rules are the same; the description records what the variant changed.

Output per sequence NAME in --out:
``NAME.mp4`` and ``NAME.gt.json``::

    {"name": ..., "description": ..., "fps": 30, "width": 640, "height": 360,
     "numFrames": N,
     "frames": [{"frame": 1, "objects": [{"id": 1, "x": .., "y": .., "width": .., "height": ..}]}]}

Frames are 1-based, boxes are integer pixels with a top-left origin.  A variant's
ground truth also has ``"variant": K``.  A stamp file (``.generator-stamp``) records a
hash of this script, the assets and the variant; an existing, up-to-date sequence is
skipped unless --force is given.

Needs numpy, Pillow and the ``ffmpeg`` binary.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter, ImageOps

WIDTH, HEIGHT, FPS = 640, 360, 30
MIN_VISIBLE = 0.3
COVER_ALPHA = 0.5  # a nearer cut-out pixel hides what is behind it above this alpha
STAMP_NAME = ".generator-stamp"

# --------------------------------------------------------------------------
# Assets: object cut-outs and backgrounds (coordinates in the source photos).
# Object boxes were found with ssd_mobilenet_v1_coco_quant_metadata.tflite
# (MediaPipe ObjectDetector, score >= 0.7 except where noted).
# --------------------------------------------------------------------------

#: name -> (photo, object box (x, y, w, h) in the photo, margin as a fraction of the box)
SPRITES: dict[str, tuple[str, tuple[int, int, int, int], float]] = {
    "dogA": ("pets.jpg", (119, 48, 129, 246), 0.05),        # running whippet, "dog" 0.81
    "dogB": ("pets.jpg", (346, 162, 147, 207), 0.12),       # boston terrier, "dog" 0.75
    "owl": ("owl.jpg", (154, 10, 178, 356), 0.12),          # burrowing owl, "bird" 0.82
    "person": ("person.jpg", (186, 99, 83, 273), 0.12),     # walker in blue, "person" 0.82
    "cat": ("cat_720p.jpg", (102, 94, 789, 609), 0.12),     # tabby, "cat" 0.72
    "horse": ("person.jpg", (394, 132, 211, 214), 0.12),    # white pony, "sheep" 0.77
    "bird": ("bird.png", (39, 83, 447, 240), 0.12),         # chickadee, "bird" 0.75
    "grace": ("grace_hopper.png", (0, 22, 508, 570), 0.12),  # portrait, "person" 0.71
}

#: name -> (photo, region (x0, y0, x1, y1), how): "crop" scales the region to fill the
#: frame (centre-cropped to 16:9), "tile" scales it to the frame height and mirror-tiles it.
BACKGROUNDS: dict[str, tuple[str, tuple[int, int, int, int], str]] = {
    "turf": ("pets.jpg", (0, 100, 110, 430), "tile"),
    "foliage": ("giraffe.jpg", (0, 0, 165, 330), "tile"),
    "floor": ("dog.jpg", (340, 436, 768, 576), "crop"),
}

#: foreground occluder textures: name -> (photo, region (x0, y0, x1, y1))
OCCLUDER_TEXTURES: dict[str, tuple[str, tuple[int, int, int, int]]] = {
    "post": ("dog.jpg", (0, 0, 50, 220)),     # dark porch pillar
    "boards": ("dog.jpg", (400, 440, 560, 576)),  # grey porch floorboards, stood upright
}

# Canvas padding around the frame for camera jitter (max |shift| in pixels).
PAD = 24

# Held-out variants: speed factor range, max start shift (x, y) in pixels, and the
# look-alike roles / occluder textures that may trade places.
SPEED_RANGE = (0.8, 1.25)
START_SHIFT = (20, 10)
ROLE_SWAPS = (("dogA", "dogB"), ("cat", "horse"))
MAX_SWAPPED_HEIGHT = 0.9 * HEIGHT  # a swapped-in cut-out keeps the role's box width up to this height
TEXTURE_SWAP = ("post", "boards")


# --------------------------------------------------------------------------
# Scene description
# --------------------------------------------------------------------------

@dataclass
class Actor:
    """A cut-out moving along piecewise-linear key frames.

    keys: (frame, cx, cy, h) with frame 1-based, (cx, cy) the centre of the
    object box in world (un-jittered frame) coordinates and h its height.
    Before the first and after the last key the actor holds still.
    bob: (amplitude px, period frames) vertical bobbing, like a gait.
    """

    sprite: str
    keys: list[tuple[int, float, float, float]]
    z: int = 0
    bob: tuple[float, float] = (0.0, 1.0)

    def state(self, k: int) -> tuple[float, float, float]:
        keys = self.keys
        if k <= keys[0][0]:
            _, cx, cy, h = keys[0]
        elif k >= keys[-1][0]:
            _, cx, cy, h = keys[-1]
        else:
            for (f0, x0, y0, h0), (f1, x1, y1, h1) in zip(keys, keys[1:]):
                if f0 <= k <= f1:
                    t = (k - f0) / (f1 - f0)
                    cx, cy, h = x0 + t * (x1 - x0), y0 + t * (y1 - y0), h0 + t * (h1 - h0)
                    break
        amp, period = self.bob
        if amp:
            cy += amp * math.sin(2 * math.pi * k / period)
        return cx, cy, h


@dataclass
class Occluder:
    """A foreground band drawn over every actor: (x, y, w, h) in world coordinates."""

    texture: str
    box: tuple[int, int, int, int]


@dataclass
class Sequence:
    name: str
    description: str
    frames: int
    background: str
    actors: list[Actor]
    occluders: list[Occluder] = field(default_factory=list)
    jitter: float = 0.0  # std-dev of the per-frame camera step in pixels (0 = still camera)
    seed: int = 0
    mirror: bool = False  # flip the rendered frames (and ground-truth boxes) left-right
    variant: int = 0


def sequences(variant: int = 0) -> list[Sequence]:
    """The test set: the fixed default sequences (variant 0) or held-out variant K."""
    base = default_sequences()
    if variant == 0:
        return base
    rng = np.random.default_rng(variant)
    return [make_variant(seq, variant, rng) for seq in base]


def aspect(sprite: str) -> float:
    """Width / height of a cut-out's object box."""
    _, (_, _, w, h), _ = SPRITES[sprite]
    return w / h


def make_variant(seq: Sequence, variant: int, rng: np.random.Generator) -> Sequence:
    """Held-out variant of one sequence (see the module docstring).

    rng (seeded with K) is shared by all seven sequences in their fixed order, and all
    seven are always built (--only just picks), so every sequence's variant is fixed by K.
    """
    lo, hi = SPEED_RANGE
    speed = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    others = [b for b in BACKGROUNDS if b != seq.background]
    background = others[int(rng.integers(len(others)))]
    swaps = [bool(rng.random() < 0.5) for _ in ROLE_SWAPS]
    swap_texture = bool(rng.random() < 0.5)
    seed = int(rng.integers(1 << 31))
    frames = max(2, round(1 + (seq.frames - 1) / speed))
    stretch = (frames - 1) / (seq.frames - 1)  # time scale actually applied (frames are whole)

    rename: dict[str, str] = {}
    for (a, b), swap in zip(ROLE_SWAPS, swaps):
        if swap:
            rename[a], rename[b] = b, a
    actors = []
    for actor in seq.actors:
        dx = int(rng.integers(-START_SHIFT[0], START_SHIFT[0] + 1))
        dy = int(rng.integers(-START_SHIFT[1], START_SHIFT[1] + 1))
        _, x0, y0, _ = actor.keys[0]
        keys, holding = [], True
        for f, x, y, h in actor.keys:
            holding = holding and (x, y) == (x0, y0)  # the start and a hold at the start move
            if holding:
                x, y = x + dx, y + dy
            if actor.sprite in rename:  # keep the role's box width: same crossings, passes, exits
                h = min(MAX_SWAPPED_HEIGHT, h * aspect(actor.sprite) / aspect(rename[actor.sprite]))
            keys.append((1 + (f - 1) * stretch, x, y, h))
        amp, period = actor.bob
        actors.append(Actor(rename.get(actor.sprite, actor.sprite), keys, actor.z, (amp, period * stretch)))
    occluders = seq.occluders
    if swap_texture:
        a, b = TEXTURE_SWAP
        occluders = [Occluder({a: b, b: a}.get(o.texture, o.texture), o.box) for o in occluders]

    present = {a.sprite for a in seq.actors}
    notes = (["mirrored left-right, so left and right above are swapped"] if variant % 2 else []) + [
        f"speed x{(seq.frames - 1) / (frames - 1):.3f} ({frames} frames instead of {seq.frames})",
        f"background {background} instead of {seq.background}",
    ]
    notes += [f"{a} and {b} swapped" for (a, b), swap in zip(ROLE_SWAPS, swaps)
              if swap and present & {a, b}]
    if swap_texture and any(o.texture in TEXTURE_SWAP for o in seq.occluders):
        notes.append("occluder textures swapped")
    notes.append("start positions shifted")
    if seq.jitter > 0:
        notes.append("other jitter seed")
    return Sequence(seq.name, f"{seq.description} [variant {variant}: {'; '.join(notes)}]",
                    frames, background, actors, occluders, seq.jitter, seed,
                    mirror=variant % 2 == 1, variant=variant)


def default_sequences() -> list[Sequence]:
    """The fixed default test set (variant 0), on which the tracker was tuned."""
    H = HEIGHT
    return [
        Sequence(
            "crossing",
            "Two dogs cross in opposite directions (the nearer one hides most of the other "
            "for a few frames); later an owl and a person cross with the person in front.",
            150, "turf",
            [
                Actor("dogA", [(1, 90, 190, 150), (150, 560, 200, 150)], z=0, bob=(3, 14)),
                Actor("dogB", [(1, 560, 215, 130), (150, 90, 205, 130)], z=1, bob=(2, 11)),
                Actor("owl", [(1, 600, 95, 110), (60, 600, 95, 110), (150, 260, 95, 110)], z=0),
                Actor("person", [(1, 40, 110, 150), (60, 40, 110, 150), (150, 400, 110, 150)], z=2),
            ],
        ),
        Sequence(
            "occlusion_partial",
            "A person walks behind a narrow post (partly hidden for ~40 frames, up to about half); an owl "
            "walks behind a standing pony (its lower third hidden); a bird perches as a control.",
            150, "foliage",
            [
                Actor("person", [(1, 50, 200, 180), (150, 330, 200, 180)], z=0, bob=(2, 15)),
                Actor("horse", [(1, 480, 270, 130)], z=2),
                Actor("owl", [(1, 640, 190, 130), (150, 400, 190, 130)], z=1),
                Actor("bird", [(1, 100, 55, 60), (150, 120, 60, 60)], z=3),
            ],
            occluders=[Occluder("post", (180, 0, 26, H))],
        ),
        Sequence(
            "occlusion_full",
            "A wide board wall hides a dog completely for ~20 frames and, later and going the other "
            "way, a slower cat for ~40 frames (longer than ByteTrack's 30-frame buffer); both "
            "keep their ids.  A bird stays visible.",
            210, "foliage",
            [
                Actor("dogA", [(1, 60, 200, 150), (100, 580, 200, 150)], z=0, bob=(3, 14)),
                Actor("cat", [(1, 560, 270, 80), (40, 560, 270, 80), (210, 120, 270, 80)], z=0),
                Actor("bird", [(1, 120, 60, 70), (210, 200, 70, 70)], z=1),
            ],
            occluders=[Occluder("boards", (250, 0, 140, H))],
        ),
        Sequence(
            "exit_reentry",
            "A dog runs out of the right edge and comes back ~20 frames later (new id); an owl "
            "leaves on the left and returns ~3.5 s later (new id); a pony leaves at the top-right "
            "~10 frames before a second dog enters there (a different object: new id); a person "
            "stays in view throughout.",
            210, "floor",
            [
                Actor("dogA", [(1, 420, 180, 150), (40, 700, 180, 150), (50, 700, 180, 150),
                               (80, 470, 180, 150), (210, 470, 180, 150)], z=0, bob=(3, 14)),
                Actor("owl", [(1, 160, 230, 120), (70, -80, 230, 120), (140, -80, 230, 120),
                              (200, 150, 230, 120)], z=1),
                Actor("person", [(1, 300, 200, 180), (210, 320, 200, 180)], z=2),
                Actor("horse", [(1, 560, 90, 100), (90, 560, 90, 100), (120, 700, 60, 100)], z=0),
                Actor("dogB", [(1, 720, 70, 100), (100, 720, 70, 100), (160, 520, 90, 100),
                               (210, 520, 90, 100)], z=0),
            ],
        ),
        Sequence(
            "scale_change",
            "A cat approaches (box height 70 -> 280 px) while a pony recedes (260 -> 70 px); "
            "a dog at constant size crosses between them.",
            180, "turf",
            [
                Actor("cat", [(1, 180, 150, 70), (180, 250, 200, 280)], z=2),
                Actor("horse", [(1, 470, 200, 260), (180, 500, 120, 70)], z=1),
                Actor("dogB", [(1, 40, 280, 100), (180, 620, 280, 100)], z=3, bob=(2, 11)),
            ],
        ),
        Sequence(
            "camera_jitter",
            "A hand-held camera: the whole frame shakes by a few pixels each frame (random walk "
            "pulled back to centre) while a bird, a person and a dog move slowly.",
            180, "floor",
            [
                Actor("bird", [(1, 150, 90, 80), (180, 260, 110, 80)], z=0),
                Actor("person", [(1, 450, 200, 200), (180, 380, 200, 200)], z=1),
                Actor("dogB", [(1, 120, 260, 120), (180, 220, 250, 120)], z=2),
            ],
            jitter=4.0, seed=7,
        ),
        Sequence(
            "mixed",
            "Everything at once with mild jitter: four objects, two crossings, a post, one "
            "exit and re-entry (new id) and a portrait that grows.",
            240, "turf",
            [
                Actor("dogA", [(1, 80, 200, 140), (120, 560, 200, 140), (150, 700, 200, 140),
                               (175, 700, 200, 140), (240, 520, 200, 140)], z=1, bob=(3, 14)),
                Actor("dogB", [(1, 580, 240, 110), (140, 100, 240, 110), (240, 200, 240, 110)], z=2,
                      bob=(2, 11)),
                Actor("owl", [(1, 330, 90, 100), (240, 420, 100, 100)], z=0),
                Actor("grace", [(1, 560, 80, 70), (240, 120, 110, 130)], z=0),
            ],
            occluders=[Occluder("post", (420, 0, 30, H))],
            jitter=2.0, seed=11,
        ),
    ]


# --------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------

class Assets:
    """Loads and prepares the photos once."""

    def __init__(self, images_dir: Path):
        self.dir = images_dir
        self._photos: dict[str, Image.Image] = {}
        self._sprites: dict[str, tuple[Image.Image, Image.Image, tuple[float, float, float, float]]] = {}

    def photo(self, name: str) -> Image.Image:
        if name not in self._photos:
            path = self.dir / name
            if not path.is_file():
                raise SystemExit(f"error: missing asset {path} (set --assets or VISION_TASKS_ASSETS)")
            self._photos[name] = Image.open(path).convert("RGB")
        return self._photos[name]

    def sprite(self, name: str):
        """(rgb, alpha, object box (x, y, w, h) inside the cut-out), pre-scaled to <= 400 px tall."""
        if name not in self._sprites:
            photo_name, (x, y, w, h), margin = SPRITES[name]
            im = self.photo(photo_name)
            mx, my = int(w * margin), int(h * margin)
            x0, y0 = max(0, x - mx), max(0, y - my)
            x1, y1 = min(im.width, x + w + mx), min(im.height, y + h + my)
            rgb = im.crop((x0, y0, x1, y1))
            ox, oy = x - x0, y - y0
            # Alpha: 1 on the object box, fading linearly to 0 across the margin.
            yy, xx = np.mgrid[0:rgb.height, 0:rgb.width].astype(np.float32)
            dx = np.maximum(np.maximum(ox - xx, xx - (ox + w - 1)), 0) / max(1, mx)
            dy = np.maximum(np.maximum(oy - yy, yy - (oy + h - 1)), 0) / max(1, my)
            alpha = np.clip(1.0 - np.maximum(dx, dy), 0.0, 1.0)
            alpha_im = Image.fromarray((alpha * 255).round().astype(np.uint8), "L")
            scale = min(1.0, 400.0 / rgb.height)
            if scale < 1.0:
                size = (round(rgb.width * scale), round(rgb.height * scale))
                rgb = rgb.resize(size, Image.LANCZOS)
                alpha_im = alpha_im.resize(size, Image.LANCZOS)
            self._sprites[name] = (rgb, alpha_im, (ox * scale, oy * scale, w * scale, h * scale))
        return self._sprites[name]

    def background(self, name: str) -> np.ndarray:
        """A (HEIGHT + 2 PAD) x (WIDTH + 2 PAD) RGB canvas."""
        photo_name, (x0, y0, x1, y1), how = BACKGROUNDS[name]
        region = self.photo(photo_name).crop((x0, y0, x1, y1))
        cw, ch = WIDTH + 2 * PAD, HEIGHT + 2 * PAD
        if how == "crop":
            w, h = region.size
            if w / h > cw / ch:
                nw = round(h * cw / ch)
                region = region.crop(((w - nw) // 2, 0, (w - nw) // 2 + nw, h))
            else:
                nh = round(w * ch / cw)
                region = region.crop((0, (h - nh) // 2, w, (h - nh) // 2 + nh))
            canvas = region.resize((cw, ch), Image.BICUBIC)
        else:
            tile = region.resize((max(1, round(region.width * ch / region.height)), ch), Image.BICUBIC)
            canvas = Image.new("RGB", (cw, ch))
            x, flip = 0, False
            while x < cw:
                canvas.paste(ImageOps.mirror(tile) if flip else tile, (x, 0))
                x += tile.width
                flip = not flip
        canvas = canvas.filter(ImageFilter.GaussianBlur(1.0))
        return np.asarray(canvas, dtype=np.float32)

    def occluder(self, texture: str, w: int, h: int) -> np.ndarray:
        photo_name, box = OCCLUDER_TEXTURES[texture]
        return np.asarray(self.photo(photo_name).crop(box).resize((w, h), Image.BICUBIC), dtype=np.float32)


def jitter_offsets(seq: Sequence) -> list[tuple[int, int]]:
    """Per-frame camera offset (dx, dy): a random walk pulled back towards 0, clipped to PAD."""
    if seq.jitter <= 0:
        return [(0, 0)] * seq.frames
    rng = np.random.default_rng(seq.seed)
    pos = np.zeros(2)
    out = []
    for _ in range(seq.frames):
        pos = 0.8 * pos + rng.normal(0.0, seq.jitter, 2)
        pos = np.clip(pos, -PAD, PAD)
        out.append((int(round(pos[0])), int(round(pos[1]))))
    return out


def _paste(frame: np.ndarray, cover: np.ndarray, rgb: np.ndarray, alpha: np.ndarray, x: int, y: int) -> None:
    """Alpha-blend rgb/alpha at (x, y) into frame (clipped) and mark cover where alpha > COVER_ALPHA."""
    h, w = alpha.shape
    fx0, fy0 = max(0, x), max(0, y)
    fx1, fy1 = min(frame.shape[1], x + w), min(frame.shape[0], y + h)
    if fx0 >= fx1 or fy0 >= fy1:
        return
    sx0, sy0 = fx0 - x, fy0 - y
    a = alpha[sy0:sy0 + fy1 - fy0, sx0:sx0 + fx1 - fx0, None]
    region = frame[fy0:fy1, fx0:fx1]
    region *= 1.0 - a
    region += rgb[sy0:sy0 + fy1 - fy0, sx0:sx0 + fx1 - fx0] * a
    cover[fy0:fy1, fx0:fx1] |= a[..., 0] > COVER_ALPHA


def render(seq: Sequence, assets: Assets):
    """Yield (rgb uint8 frame, [(actor index, full box, visible box or None, in-frame fraction)])."""
    background = assets.background(seq.background)
    offsets = jitter_offsets(seq)
    order = sorted(range(len(seq.actors)), key=lambda i: seq.actors[i].z)  # far to near
    occluder_pixels = [assets.occluder(o.texture, o.box[2], o.box[3]) for o in seq.occluders]
    for k in range(1, seq.frames + 1):
        jx, jy = offsets[k - 1]
        frame = background[PAD + jy:PAD + jy + HEIGHT, PAD + jx:PAD + jx + WIDTH].copy()
        placed = {}
        for i in order:
            actor = seq.actors[i]
            rgb_im, alpha_im, (ox, oy, ow, oh) = assets.sprite(actor.sprite)
            cx, cy, h = actor.state(k)
            s = h / oh
            sw, sh = max(1, round(rgb_im.width * s)), max(1, round(rgb_im.height * s))
            bw, bh = max(1, round(ow * s)), max(1, round(oh * s))
            bx, by = round(cx - bw / 2) - jx, round(cy - bh / 2) - jy  # object box, frame coords
            sx, sy = bx - round(ox * s), by - round(oy * s)            # cut-out origin
            rgb = np.asarray(rgb_im.resize((sw, sh), Image.BILINEAR), dtype=np.float32)
            alpha = np.asarray(alpha_im.resize((sw, sh), Image.BILINEAR), dtype=np.float32) / 255.0
            placed[i] = (rgb, alpha, sx, sy, (bx, by, bw, bh))
        # Composite far to near, keeping each cut-out's opaque footprint: an actor's hidden
        # pixels are those covered by any nearer cut-out or by a foreground occluder.
        covers = []
        for i in order:
            rgb, alpha, sx, sy, _ = placed[i]
            cover = np.zeros((HEIGHT, WIDTH), dtype=bool)
            _paste(frame, cover, rgb, alpha, sx, sy)
            covers.append((i, cover))
        occ_cover = np.zeros((HEIGHT, WIDTH), dtype=bool)
        for occ, pix in zip(seq.occluders, occluder_pixels):
            x, y, w, h = occ.box
            _paste(frame, occ_cover, pix, np.ones((h, w), dtype=np.float32), x - jx, y - jy)
        objects = []
        for rank, (i, _) in enumerate(covers):
            bx, by, bw, bh = placed[i][4]
            hidden = occ_cover.copy()
            for _, nearer in covers[rank + 1:]:
                hidden |= nearer
            x0, y0, x1, y1 = max(0, bx), max(0, by), min(WIDTH, bx + bw), min(HEIGHT, by + bh)
            area = bw * bh
            in_frame = max(0, x1 - x0) * max(0, y1 - y0) / area
            visible_box = None
            if in_frame > 0:
                vis = ~hidden[y0:y1, x0:x1]
                if vis.sum() / area >= MIN_VISIBLE:
                    rows, cols = np.flatnonzero(vis.any(axis=1)), np.flatnonzero(vis.any(axis=0))
                    visible_box = (x0 + int(cols[0]), y0 + int(rows[0]),
                                   int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1))
            objects.append((i, (bx, by, bw, bh), visible_box, in_frame))
        if seq.mirror:  # exact: flip the pixels and every box about the vertical centre line
            frame = frame[:, ::-1]
            objects = [(i, (WIDTH - bx - bw, by, bw, bh),
                        None if vb is None else (WIDTH - vb[0] - vb[2], vb[1], vb[2], vb[3]), in_frame)
                       for i, (bx, by, bw, bh), vb, in_frame in objects]
        yield np.ascontiguousarray(np.clip(frame + 0.5, 0, 255).astype(np.uint8)), objects


def assign_ids(seq: Sequence, per_frame_objects) -> list[list[dict]]:
    """Turn per-frame visibility into ground-truth ids (new id after leaving the frame)."""
    next_id = 1
    current = {}      # actor index -> id while the actor is in the ground truth
    left_frame = {}   # actor index -> whether it was out of the frame since it was last seen
    frames = []
    for objects in per_frame_objects:
        out = []
        for i, _, visible_box, in_frame in sorted(objects):
            if in_frame < MIN_VISIBLE:
                left_frame[i] = True
            if visible_box is None:
                continue
            if i not in current or left_frame.get(i, False):
                current[i] = next_id
                next_id += 1
            left_frame[i] = False
            x, y, w, h = visible_box
            out.append({"id": current[i], "x": x, "y": y, "width": w, "height": h})
        frames.append(out)
    return frames


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def ffmpeg_command(path: Path) -> list[str]:
    return [
        "ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{WIDTH}x{HEIGHT}", "-framerate", str(FPS), "-i", "-",
        "-an", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", "-g", "30",
        # No B-frames: no composition offset / edit list, so every decoder shows exactly
        # the frames that were written, starting at t = 0.
        "-bf", "0", "-threads", "2", "-fps_mode", "passthrough",
        "-movflags", "+faststart", str(path),
    ]


def stamp_for(images_dir: Path, variant: int) -> str:
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(f"variant={variant}\n".encode())
    names = {p for p, *_ in SPRITES.values()} | {p for p, *_ in BACKGROUNDS.values()} | \
        {p for p, _ in OCCLUDER_TEXTURES.values()}
    for name in sorted(names):
        path = images_dir / name
        h.update(name.encode())
        h.update(path.read_bytes() if path.is_file() else b"missing")
    return h.hexdigest()


def count_frames(path: Path) -> int | None:
    """Frames a decoder sees (ffprobe -count_frames), or None without ffprobe."""
    if not shutil.which("ffprobe"):
        return None
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
         "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", str(path)],
        check=True, capture_output=True, text=True).stdout.strip()
    return int(out.split(",")[0])


def write_sequence(seq: Sequence, assets: Assets, out_dir: Path, png_frames: list[int]) -> dict:
    mp4 = out_dir / f"{seq.name}.mp4"
    tmp = out_dir / f".{seq.name}.tmp.mp4"
    proc = subprocess.Popen(ffmpeg_command(tmp), stdin=subprocess.PIPE)
    per_frame = []
    try:
        for k, (rgb, objects) in enumerate(render(seq, assets), start=1):
            proc.stdin.write(rgb.tobytes())
            per_frame.append(objects)
            if k in png_frames:
                Image.fromarray(rgb).save(out_dir / f"{seq.name}.{k:04d}.png")
        proc.stdin.close()
    except BrokenPipeError:
        pass
    if proc.wait() != 0:
        raise SystemExit(f"error: ffmpeg failed for {seq.name}")
    decoded = count_frames(tmp)
    if decoded is not None and decoded != seq.frames:
        raise SystemExit(f"error: {seq.name}: decoder sees {decoded} frames, generated {seq.frames}")
    tmp.replace(mp4)
    gt_frames = assign_ids(seq, per_frame)
    gt = {
        "name": seq.name, "description": seq.description,
        "fps": FPS, "width": WIDTH, "height": HEIGHT, "numFrames": seq.frames,
        "frames": [{"frame": k, "objects": objs} for k, objs in enumerate(gt_frames, start=1)],
    }
    if seq.variant:
        gt["variant"] = seq.variant
    (out_dir / f"{seq.name}.gt.json").write_text(json.dumps(gt, separators=(",", ":")) + "\n")
    ids = {o["id"] for f in gt_frames for o in f}
    boxes = sum(len(f) for f in gt_frames)
    return {"name": seq.name, "frames": seq.frames, "ids": len(ids), "boxes": boxes}


def default_assets() -> Path:
    env = os.environ.get("VISION_TASKS_ASSETS")
    if env:
        return Path(env)
    project = Path(__file__).resolve().parents[2]
    return project.parent / "shared"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, type=Path, help="output directory")
    parser.add_argument("--assets", type=Path, default=None,
                        help="shared assets directory holding images/ "
                             "(default: $VISION_TASKS_ASSETS, else ../shared next to the project)")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME", help="generate only these sequences")
    parser.add_argument("--force", action="store_true", help="regenerate even if up to date")
    parser.add_argument("--png", type=int, nargs="*", default=[], metavar="FRAME",
                        help="also save these frames (1-based) as NAME.FRAME.png, for inspection")
    parser.add_argument("--list", action="store_true", help="list the sequences and exit")
    parser.add_argument("--variant", type=int, default=0, metavar="K",
                        help="0 (default): the default sequences; K >= 1: held-out variant K "
                             "(mirrored for odd K, other speeds, pairings and start positions)")
    args = parser.parse_args(argv)
    if args.variant < 0:
        parser.error("--variant must be >= 0")

    all_seqs = sequences(args.variant)
    if args.list:
        for s in all_seqs:
            print(f"{s.name:18s} {s.frames:4d} frames  {s.description}")
        return 0
    if args.only:
        unknown = set(args.only) - {s.name for s in all_seqs}
        if unknown:
            parser.error(f"unknown sequence(s): {', '.join(sorted(unknown))}")
        all_seqs = [s for s in all_seqs if s.name in args.only]
    if not shutil.which("ffmpeg"):
        raise SystemExit("error: the ffmpeg binary is not on PATH")

    assets_dir = (args.assets or default_assets()).resolve()
    images_dir = assets_dir / "images" if (assets_dir / "images").is_dir() else assets_dir
    if not images_dir.is_dir():
        raise SystemExit(f"error: assets directory {assets_dir} not found")
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = stamp_for(images_dir, args.variant)
    stamp_path = args.out / STAMP_NAME
    old = json.loads(stamp_path.read_text()) if stamp_path.is_file() else {}

    assets = Assets(images_dir)
    for seq in all_seqs:
        have = (args.out / f"{seq.name}.mp4").is_file() and (args.out / f"{seq.name}.gt.json").is_file()
        if have and old.get(seq.name) == stamp and not args.force and not args.png:
            print(f"{seq.name}: up to date")
            continue
        info = write_sequence(seq, assets, args.out, args.png)
        old[seq.name] = stamp
        stamp_path.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n")
        print(f"{info['name']}: {info['frames']} frames, {info['ids']} ground-truth ids, "
              f"{info['boxes']} boxes -> {args.out / (seq.name + '.mp4')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

// The app's page: HTML, CSS and script in one text, served as it is (no framework, nothing fetched).
enum ServeAppPage {
    static let text = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>VisionTasks</title>
        <link rel="icon" href="data:,">
        <style>
        :root { --ink: #1d2330; --soft: #5b6475; --line: #dde2ea; --accent: #0b7a75; --bg: #f4f6f9; }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { margin: 0; font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
          background: var(--bg); }
        header { display: flex; align-items: center; gap: 12px; padding: 10px 16px; background: var(--ink);
          color: #fff; }
        header h1 { font-size: 18px; margin: 0; flex: 1; }
        header .model { color: #c5cbd6; font-size: 13px; }
        button, select, input { font: inherit; }
        button { cursor: pointer; border-radius: 8px; border: 1px solid var(--line); background: #fff;
          padding: 6px 12px; }
        button:focus-visible, select:focus-visible, input:focus-visible, a:focus-visible {
          outline: 3px solid #f0a500; outline-offset: 2px; }
        header button { background: transparent; color: #fff; border-color: #4a5468; }
        nav { display: flex; gap: 4px; padding: 8px 16px 0; }
        nav button { border-radius: 8px 8px 0 0; border-bottom: none; background: #e8ecf2; }
        nav button[aria-selected="true"] { background: #fff; font-weight: 600; }
        main { padding: 0 16px 16px; }
        section { background: #fff; border-radius: 0 8px 8px 8px; padding: 12px; }
        .modes { display: flex; gap: 6px; margin-bottom: 10px; flex-wrap: wrap; }
        .modes button[aria-pressed="true"] { background: var(--accent); color: #fff; border-color: var(--accent); }
        .stage { position: relative; background: #111; border-radius: 8px; overflow: hidden; line-height: 0;
          max-width: 960px; }
        .stage video, .stage img, .stage canvas.picture { width: 100%; height: auto; display: block; }
        .stage canvas.overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
        .stats { display: flex; gap: 16px; flex-wrap: wrap; margin: 8px 0; color: var(--soft); font-size: 13px; }
        .stats b { color: var(--ink); }
        .notice { margin: 8px 0; padding: 8px 10px; border-radius: 8px; background: #fff4e0; color: #6b4500; }
        .notice:empty { display: none; }
        ol.categories { margin: 8px 0; padding-left: 22px; }
        ol.categories li span { color: var(--soft); }
        .sheet { position: fixed; left: 0; right: 0; bottom: 0; background: #fff; border-radius: 16px 16px 0 0;
          box-shadow: 0 -6px 24px rgba(0, 0, 0, .25); padding: 14px 18px 22px; max-width: 640px; margin: 0 auto; }
        .sheet[hidden] { display: none; }
        .sheet h2 { font-size: 17px; margin: 0 0 10px; display: flex; justify-content: space-between;
          align-items: center; }
        .sheet label { display: grid; grid-template-columns: 130px 1fr auto; align-items: center; gap: 10px;
          margin: 10px 0; }
        .sheet .why { color: var(--soft); font-size: 13px; margin: 0 0 0 140px; }
        .drop { display: block; border: 2px dashed var(--line); border-radius: 8px; padding: 14px; margin-bottom: 10px;
          text-align: center; color: var(--soft); }
        .summary { color: var(--soft); }
        @media (max-width: 600px) {
          header h1 { font-size: 16px; } main { padding: 0 6px 6px; } nav { padding: 6px 6px 0; }
          .sheet label { grid-template-columns: 1fr; } .sheet .why { margin: 0; }
        }
        </style>
        </head>
        <body>
        <header>
          <h1>VisionTasks</h1>
          <span class="model" id="modelName"></span>
          <button id="settingsButton" aria-haspopup="dialog" aria-expanded="false"
            aria-controls="settings">Settings</button>
        </header>
        <nav role="tablist" aria-label="Views">
          <button role="tab" id="cameraTab" aria-selected="true" aria-controls="camera">Camera</button>
          <button role="tab" id="libraryTab" aria-selected="false" aria-controls="library"
            tabindex="-1">Library</button>
        </nav>
        <main>
          <div class="modes" role="group" aria-label="Task">
            <button data-mode="detect" aria-pressed="true">Detect objects</button>
            <button data-mode="classify" aria-pressed="false">Classify</button>
            <button data-mode="objects" aria-pressed="false">Track objects (ML Kit)</button>
          </div>
          <section id="camera" role="tabpanel" aria-labelledby="cameraTab">
            <p class="notice" id="cameraNotice" role="status"></p>
            <div class="stage" id="cameraStage">
              <video id="video" autoplay muted playsinline aria-label="Camera"></video>
              <canvas class="overlay" id="overlay" aria-hidden="true"></canvas>
            </div>
            <div class="stats" aria-live="polite">
              <span>inference <b id="inference">–</b></span>
              <span>round trip <b id="roundTrip">–</b></span>
              <span><b id="fps">–</b> frames/s</span>
              <span>dropped <b id="dropped">0</b></span>
            </div>
            <ol class="categories" id="liveCategories" aria-label="Top categories"></ol>
          </section>
          <section id="library" role="tabpanel" aria-labelledby="libraryTab" hidden>
            <label class="drop">Choose a photo or a video
              <input type="file" id="file" accept="image/*,video/*"></label>
            <p class="notice" id="libraryNotice" role="status"></p>
            <div class="stage" id="libraryStage" hidden>
              <canvas class="picture" id="picture"></canvas>
              <video id="annotated" controls playsinline hidden></video>
            </div>
            <p><a id="download" download="annotated.mp4" hidden>Download the annotated video</a></p>
            <p class="summary" id="summary"></p>
            <ol class="categories" id="libraryCategories" aria-label="Categories"></ol>
          </section>
        </main>
        <div class="sheet" id="settings" role="dialog" aria-modal="false" aria-labelledby="settingsTitle" hidden>
          <h2><span id="settingsTitle">Settings</span>
            <button id="closeSettings" aria-label="Close settings">Done</button></h2>
          <label>Model <select id="model"></select><span></span></label>
          <label>Score threshold <input type="range" id="threshold" min="0" max="1" step="0.05" value="0.5">
            <output id="thresholdValue">0.50</output></label>
          <label>Max results <input type="number" id="maxResults" min="1" max="20" value="5"><span></span></label>
          <label>Delegate <select id="delegate"><option value="CPU" selected>CPU</option>
            <option value="GPU" disabled>GPU (not on Linux)</option></select><span></span></label>
          <p class="why" id="delegateWhy">GPU: MediaPipe's GPU delegate does not exist on Linux; VisionTasks runs
            LiteRT on the CPU (XNNPACK, VisionTasks' exact kernels).</p>
        </div>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        const vt = window.vt = {
          mode: "detect", models: [], settings: { detector: null, classifier: null, threshold: 0.5, maxResults: 5 },
          live: { running: false, inFlight: 0, maxInFlight: 0, sent: 0, answered: 0, dropped: 0, frames: 0,
                  inferenceMs: null, roundTripMs: null, fps: 0, errors: 0, times: [] },
          camera: "starting", drawn: [], lastRecord: null, lastFrame: null, library: null,
          session: "app-" + Math.random().toString(36).slice(2, 10),
        };
        const colors = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45"];

        function modelFor(mode) {
          return mode === "detect" ? vt.settings.detector : vt.settings.classifier;
        }
        function query(extra) {
          const q = new URLSearchParams(extra || {});
          const model = modelFor(vt.mode);
          if (model) q.set("model", model);
          if (vt.mode !== "objects") {
            q.set("scoreThreshold", String(vt.settings.threshold));
            q.set("maxResults", String(vt.settings.maxResults));
          }
          return q.toString();
        }
        function endpoint(live) {
          if (vt.mode === "objects" && live) {
            return "/v1/track/" + vt.session + "?" + query({ timestampMs: String(Math.round(performance.now())) });
          }
          return "/v1/" + vt.mode + "?" + query();
        }

        // What a record says, as boxes in the picture's pixels and categories.
        function read(record) {
          const boxes = [], categories = [];
          for (const d of record.detections || []) {
            const c = (d.categories || [])[0] || {};
            boxes.push({ x: d.boundingBox.originX, y: d.boundingBox.originY, width: d.boundingBox.width,
              height: d.boundingBox.height, label: c.displayName || c.categoryName || "#" + c.index,
              score: c.score, color: c.index || 0 });
          }
          for (const o of record.objects || []) {
            const l = (o.labels || [])[0];
            boxes.push({ x: o.frame.originX, y: o.frame.originY, width: o.frame.width, height: o.frame.height,
              label: (o.trackingID == null ? "" : "#" + o.trackingID + " ") + (l ? l.text : "object"),
              score: l ? l.confidence : null, id: o.trackingID, color: o.trackingID || 0 });
          }
          for (const head of record.classifications || []) {
            for (const c of head.categories) categories.push({ name: c.displayName || c.categoryName, score: c.score });
          }
          return { boxes, categories };
        }

        function draw(canvas, boxes, width, height, displayed) {
          const ratio = window.devicePixelRatio || 1;
          canvas.width = Math.round(displayed.width * ratio);
          canvas.height = Math.round(displayed.height * ratio);
          const g = canvas.getContext("2d");
          g.clearRect(0, 0, canvas.width, canvas.height);
          const sx = canvas.width / width, sy = canvas.height / height;
          g.lineWidth = Math.max(2, 2 * ratio);
          g.font = Math.round(13 * ratio) + "px system-ui, sans-serif";
          for (const b of boxes) {
            const color = colors[Math.abs(b.color) % colors.length];
            g.strokeStyle = color;
            g.strokeRect(b.x * sx, b.y * sy, b.width * sx, b.height * sy);
            const text = b.label + (b.score == null ? "" : " " + Math.round(b.score * 100) + "%");
            const tw = g.measureText(text).width + 8 * ratio, th = 18 * ratio;
            const ty = b.y * sy > th ? b.y * sy - th : b.y * sy;
            // A label that would run past the right edge is moved left to end there.
            const tx = Math.max(0, Math.min(b.x * sx, canvas.width - tw));
            g.fillStyle = color;
            g.fillRect(tx, ty, tw, th);
            g.fillStyle = "#fff";
            g.fillText(text, tx + 4 * ratio, ty + 13 * ratio);
          }
        }

        function listCategories(list, categories) {
          list.replaceChildren(...categories.slice(0, 5).map((c) => {
            const li = document.createElement("li");
            li.textContent = c.name + " ";
            const s = document.createElement("span");
            s.textContent = (c.score * 100).toFixed(1) + "%";
            li.append(s);
            return li;
          }));
        }

        function serverTiming(response, name) {
          const header = response.headers.get("Server-Timing") || "";
          const m = header.match(new RegExp(name + ";dur=([0-9.]+)"));
          return m ? parseFloat(m[1]) : null;
        }
        async function problem(response) {
          try {
            const body = await response.json();
            return (body.error && (body.error.message || body.error)) || response.statusText;
          } catch (e) {
            return response.status + " " + response.statusText;
          }
        }

        // The live loop: one request in flight; a frame that comes while one is in flight is dropped,
        // and the next request takes the newest frame.
        const video = $("video"), overlay = $("overlay"), grab = document.createElement("canvas");
        function onFrame() {
          if (!vt.live.running) return;
          vt.live.frames++;
          if (vt.live.inFlight > 0) vt.live.dropped++;
          else if (video.videoWidth > 0) send();
          $("dropped").textContent = String(vt.live.dropped);
          schedule();
        }
        function schedule() {
          if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(onFrame);
          else requestAnimationFrame(onFrame);
        }
        async function send() {
          const live = vt.live;
          live.inFlight++;
          live.maxInFlight = Math.max(live.maxInFlight, live.inFlight);
          try {
            grab.width = video.videoWidth;
            grab.height = video.videoHeight;
            grab.getContext("2d").drawImage(video, 0, 0);
            const blob = await new Promise((resolve) => grab.toBlob(resolve, "image/jpeg", 0.85));
            const mode = vt.mode, t0 = performance.now(), url = endpoint(true);
            live.sent++;
            const response = await fetch(url, { method: "POST", body: blob,
              headers: { "Content-Type": "image/jpeg" } });
            if (!response.ok) {
              live.errors++;
              $("cameraNotice").textContent = "The server refused a frame: " + await problem(response);
              return;
            }
            const record = await response.json();
            if (!vt.live.running || mode !== vt.mode) return;
            live.answered++;
            live.roundTripMs = performance.now() - t0;
            live.inferenceMs = serverTiming(response, "inference");
            const now = performance.now();
            live.times.push(now);
            // The last 2 s of answers, but at least the two latest (a slow server: 0.4 frames/s, not 0).
            while (live.times.length > 2 && now - live.times[0] > 2000) live.times.shift();
            live.fps = live.times.length > 1 ? (live.times.length - 1) * 1000 / (now - live.times[0]) : 0;
            const seen = read(record);
            vt.last = { record, frame: blob, url, drawn: seen.boxes };
            vt.lastRecord = record;
            vt.lastFrame = blob;
            vt.drawn = seen.boxes;
            draw(overlay, seen.boxes, record.width, record.height, video.getBoundingClientRect());
            listCategories($("liveCategories"), seen.categories);
            $("inference").textContent = live.inferenceMs == null ? "–" : live.inferenceMs.toFixed(1) + " ms";
            $("roundTrip").textContent = live.roundTripMs.toFixed(0) + " ms";
            $("fps").textContent = live.fps.toFixed(live.fps < 1 ? 2 : 1);
            if ($("cameraNotice").textContent.startsWith("The server")) $("cameraNotice").textContent = "";
          } catch (e) {
            live.errors++;
            $("cameraNotice").textContent = "The server could not be reached: " + e.message;
          } finally {
            live.inFlight--;
          }
        }
        // The last frame answered: its JPEG (base64), the request's path and the boxes drawn from the
        // answer, taken together (the page's tests compare the boxes with the API's for that frame).
        vt.snapshot = () => new Promise((resolve) => {
          const last = vt.last;
          if (!last) return resolve(null);
          const reader = new FileReader();
          reader.onload = () => resolve({ frame: String(reader.result).split(",")[1], url: last.url, drawn: last.drawn,
            record: last.record });
          reader.readAsDataURL(last.frame);
        });

        async function startCamera() {
          if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
            vt.camera = "unavailable";
            $("cameraNotice").textContent = "This page has no camera access here: browsers give it on https or on "
              + "localhost only. The Library tab still works.";
            return;
          }
          try {
            const stream = await navigator.mediaDevices.getUserMedia({ audio: false,
              video: { width: { ideal: 640 }, height: { ideal: 480 } } });
            video.srcObject = stream;
            await video.play();
            vt.camera = "on";
            vt.live.running = true;
            schedule();
          } catch (e) {
            vt.camera = e.name === "NotAllowedError" ? "refused" : "absent";
            $("cameraNotice").textContent = (vt.camera === "refused"
              ? "Camera access was refused. Allow it in the browser's site settings and reload."
              : "No camera was found (" + e.name + ").") + " The Library tab still works.";
            $("cameraStage").hidden = true;
          }
        }

        // The library: a photo is posted to the task and its boxes drawn; a video is run through
        // `track` (or `detect`) on the server, which returns the annotated video.
        $("file").addEventListener("change", async () => {
          const file = $("file").files[0];
          if (!file) return;
          const notice = $("libraryNotice"), summary = $("summary");
          notice.textContent = "";
          summary.textContent = "Working…";
          $("download").hidden = true;
          $("libraryCategories").replaceChildren();
          $("libraryStage").hidden = false;
          vt.library = null;
          try {
            if (file.type.startsWith("video/")) {
              $("picture").hidden = true;
              const task = vt.mode === "detect" ? "detect" : "track";
              const q = new URLSearchParams({ task });
              const model = modelFor(vt.mode === "detect" ? "detect" : "objects");
              if (model) q.set("model", model);
              if (task === "detect") {
                q.set("scoreThreshold", String(vt.settings.threshold));
                q.set("maxResults", String(vt.settings.maxResults));
              }
              const response = await fetch("/v1/video?" + q, { method: "POST", body: file });
              if (!response.ok) throw new Error(await problem(response));
              const reply = await response.json();
              const ids = new Set(), counts = {};
              for (const r of reply.records) {
                for (const o of r.objects || []) if (o.trackingID != null) ids.add(o.trackingID);
                for (const d of r.detections || []) {
                  const n = ((d.categories || [])[0] || {}).categoryName || "?";
                  counts[n] = (counts[n] || 0) + 1;
                }
              }
              const player = $("annotated");
              player.src = reply.video;
              player.hidden = false;
              $("download").href = reply.video;
              $("download").hidden = false;
              vt.library = { kind: "video", frames: reply.frames, tracks: ids.size, video: reply.video, counts };
              const found = Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([k, v]) => k + " " + v);
              summary.textContent = reply.frames + " frames; " + (task === "track" ? ids.size + " objects tracked"
                : (found.length ? "detections over all frames: " + found.join(", ") : "nothing detected"));
            } else {
              $("annotated").hidden = true;
              $("picture").hidden = false;
              const image = await createImageBitmap(file);
              const canvas = $("picture");
              canvas.width = image.width;
              canvas.height = image.height;
              canvas.getContext("2d").drawImage(image, 0, 0);
              const response = await fetch(endpoint(false), { method: "POST", body: file });
              if (!response.ok) throw new Error(await problem(response));
              const record = await response.json();
              const seen = read(record);
              const overlay = document.createElement("canvas");
              draw(overlay, seen.boxes, record.width, record.height, { width: canvas.width, height: canvas.height });
              canvas.getContext("2d").drawImage(overlay, 0, 0);
              listCategories($("libraryCategories"), seen.categories);
              vt.library = { kind: "photo", record, drawn: seen.boxes };
              summary.textContent = seen.boxes.length ? seen.boxes.length + " found" : (seen.categories.length
                ? "" : "Nothing found at this threshold.");
            }
          } catch (e) {
            summary.textContent = "";
            notice.textContent = "The server could not process this file: " + e.message;
            vt.library = { kind: "error", message: e.message };
          }
        });

        // Tabs (arrow keys move between them), task modes, settings.
        const tabs = [$("cameraTab"), $("libraryTab")];
        function select(tab) {
          for (const t of tabs) {
            const on = t === tab;
            t.setAttribute("aria-selected", String(on));
            t.tabIndex = on ? 0 : -1;
            $(t.getAttribute("aria-controls")).hidden = !on;
          }
          vt.live.running = tab === tabs[0] && vt.camera === "on";
          if (vt.live.running) schedule();
        }
        tabs.forEach((t, i) => {
          t.addEventListener("click", () => select(t));
          t.addEventListener("keydown", (e) => {
            if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
            const next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
            next.focus();
            select(next);
          });
        });
        for (const b of document.querySelectorAll(".modes button")) {
          b.addEventListener("click", () => {
            vt.mode = b.dataset.mode;
            for (const o of document.querySelectorAll(".modes button")) o.setAttribute("aria-pressed", String(o === b));
            vt.drawn = [];
            vt.last = null;
            vt.lastRecord = null;
            overlay.getContext("2d").clearRect(0, 0, overlay.width, overlay.height);
            $("liveCategories").replaceChildren();
            fillModels();
          });
        }
        function fillModels() {
          const select = $("model");
          const kind = vt.mode === "detect" ? "detector" : "classifier";
          const choices = vt.models.filter((m) => m.kind === kind);
          const options = choices.map((m) => new Option(m.name + " (" + m.input.slice(1, 3).join("×") + ")", m.name));
          if (vt.mode === "objects") options.unshift(new Option("none: boxes only", ""));
          select.replaceChildren(...options);
          select.value = modelFor(vt.mode) || "";
          const name = modelFor(vt.mode);
          $("modelName").textContent = name ? name : (vt.mode === "objects" ? "bundled localizer" : "no " + kind);
          select.disabled = choices.length === 0;
        }
        $("model").addEventListener("change", () => {
          const value = $("model").value || null;
          if (vt.mode === "detect") vt.settings.detector = value;
          else vt.settings.classifier = value;
          vt.session = "app-" + Math.random().toString(36).slice(2, 10);
          fillModels();
        });
        $("threshold").addEventListener("input", () => {
          vt.settings.threshold = parseFloat($("threshold").value);
          $("thresholdValue").textContent = vt.settings.threshold.toFixed(2);
        });
        $("maxResults").addEventListener("input", () => {
          const n = parseInt($("maxResults").value, 10);
          if (n >= 1 && n <= 20) vt.settings.maxResults = n;
        });
        function openSettings(open) {
          $("settings").hidden = !open;
          $("settingsButton").setAttribute("aria-expanded", String(open));
          (open ? $("model") : $("settingsButton")).focus();
        }
        $("settingsButton").addEventListener("click", () => openSettings($("settings").hidden));
        $("closeSettings").addEventListener("click", () => openSettings(false));
        document.addEventListener("keydown", (e) => {
          if (e.key === "Escape" && !$("settings").hidden) openSettings(false);
        });

        (async () => {
          try {
            const response = await fetch("/v1/models");
            vt.models = (await response.json()).models || [];
          } catch (e) {
            $("cameraNotice").textContent = "The server's models could not be read: " + e.message;
          }
          vt.settings.detector = (vt.models.find((m) => m.kind === "detector") || {}).name || null;
          vt.settings.classifier = (vt.models.find((m) => m.kind === "classifier") || {}).name || null;
          fillModels();
          vt.ready = true;
          await startCamera();
        })();
        </script>
        </body>
        </html>
        """#
}

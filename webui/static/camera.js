// Camera mode of the companion page: the annotated camera picture (MJPEG), the tracker's state, its
// prompts and desync fixes to tap, and learning the user's box at setup (enrollment). Shown only when
// the server runs in camera mode (GET /api/tracker answers); one SSE stream (/api/tracker/events)
// keeps it current. The LED strip is the shell's LED bar (shell.js), wherever the game's module puts it.
// Texts and language come from the shell (window.companion); the panel sits at the
// top of the game module's [data-camera-slot] element (else at the top of the game view) and follows the
// module when the shell mounts another one.
"use strict";
(() => {
  const h = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const t = (key) => (window.companion ? window.companion.t(key) : key);
  let box = null;
  let last = null; // the newest tracker status
  let answerNote = null; // {ok, text} of the last answer, kept across re-renders
  let enrollError = ""; // the last enrollment failure, one line
  let enrolling = false;

  async function post(url, body) {
    const headers = { "Content-Type": "application/json" }; // a paired browser carries the pairing cookie
    const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) }).catch(() => null);
    if (!r) return { ok: false, data: null };
    return { ok: r.ok, status: r.status, data: await r.json().catch(() => null) };
  }
  const errLine = (data, fallback) => (data && data.error && data.error.message) || t(fallback);

  async function answer(id, option) {
    const r = await post("/api/tracker/answer", { id, option });
    answerNote = r.ok
      ? { ok: true, text: `${t("camEntered")}: ${(r.data.moves || []).join(" · ") || t("camDismissed")}` }
      : { ok: false, text: errLine(r.data, "camRefused") };
    render(last);
  }

  async function enroll() {
    if (enrolling) return;
    enrolling = true;
    enrollError = "";
    render(last);
    const r = await post("/api/camera/enroll", {});
    enrolling = false;
    if (r.ok && r.data) {
      if (last) last = { ...last, enrollment: r.data };
    } else {
      enrollError = errLine(r.data, "enrollFailed");
    }
    render(last);
  }

  function options(id, opts, cls) {
    return `<div class="cam-options">${opts.map((o, i) =>
      `<button class="chip ${cls}" data-testid="cam-option" data-id="${id}" data-option="${i}">${h(o.label)}</button>`).join("")}</div>`;
  }

  function list(items, testid) {
    return `<ul class="cam-list" data-testid="${testid}">${items.map((x) => `<li>${h(x)}</li>`).join("")}</ul>`;
  }

  function enrollPanel(e) {
    if (!e) return "";
    const state = e.state || "needed";
    let html = `<div class="cam-enroll cam-enroll-${h(state)}" data-testid="cam-enroll" data-state="${h(state)}">`;
    if (state === "enrolled") {
      html += `<p><b>${h(t("enrollDone"))}</b> ${h(e.message)}</p>`;
      if (e.learned && e.learned.length) html += `<p>${h(t("enrollLearned"))}:</p>${list(e.learned, "cam-learned")}`;
      if (e.missing && e.missing.length) html += `<p>${h(t("enrollMissing"))}:</p>${list(e.missing, "cam-missing")}`;
      if (e.path) html += `<p class="cam-source">${h(t("enrollKept"))} ${h(e.path)}</p>`;
    } else {
      html += `<p><b>${h(t("enrollTitle"))}:</b> ${h(t("enrollHow"))}</p>`;
      if (state === "failed") html += `<p class="cam-err"><b>${h(t("enrollFailed"))}:</b> ${h(e.message)}</p>`;
      else if (e.message) html += `<p class="cam-source">${h(e.message)}</p>`;
    }
    const label = enrolling ? t("enrollBusy") : state === "needed" ? t("enrollBtn") : t("enrollAgain");
    html += `<button class="chip cam-enroll-btn${state === "needed" ? " on" : ""}" data-testid="cam-enroll-btn" data-cam-enroll="1"${enrolling ? " disabled" : ""}>${h(label)}</button>`;
    if (enrollError) html += `<p class="cam-err" data-testid="cam-enroll-err">${h(enrollError)}</p>`;
    return html + "</div>";
  }

  function render(st) {
    if (!box || !st) return;
    box.querySelector("h2").textContent = t("camTitle");
    const kind = st.kind || "idle";
    let html = `<div class="cam-state cam-${h(kind)}" data-testid="cam-state" data-kind="${h(kind)}">` +
      `<b>${h(t("cam_" + kind))}</b> <span>${h(st.message || "")}</span></div>`;
    html += enrollPanel(st.enrollment);
    if (st.prompt) {
      html += `<div class="cam-prompt" data-testid="cam-prompt"><p>${h(st.prompt.reason)}</p>${options(st.prompt.id, st.prompt.options, "cam-pick")}</div>`;
    }
    if (st.desync) {
      const d = st.desync;
      html += `<div class="cam-desync" data-testid="cam-desync"><ul>${d.facts.map((f) =>
        `<li><b>${h(f.where)}</b>: ${h(t("camSeen"))} ${h(f.seen)}, ${h(t("camExpected"))} ${h(f.expected)}</li>`).join("")}</ul>` +
        (d.options.length ? `<p>${h(t("camFix"))}</p>${options(d.id, d.options, "cam-fix")}` : "") + "</div>";
    }
    html += `<p class="cam-source">${h(t("camSource"))}: ${h(st.source || "camera")}` +
      (st.camera ? ` · ${h(t("camFrame"))} ${st.camera.frames}` : "") + "</p>" +
      `<p id="camera-answer" class="${answerNote ? (answerNote.ok ? "cam-ok" : "cam-err") : ""}">${h(answerNote ? answerNote.text : "")}</p>`;
    box.querySelector("#camera-info").innerHTML = html;
    for (const b of box.querySelectorAll("[data-option]")) {
      b.onclick = () => answer(Number(b.dataset.id), Number(b.dataset.option));
    }
    const eb = box.querySelector("[data-cam-enroll]");
    if (eb) eb.onclick = () => enroll();
  }

  function onStatus(st) {
    last = st;
    render(st);
  }

  async function start() {
    if (box) return;
    const r = await fetch("/api/tracker").catch(() => null);
    if (r && r.status === 401) { document.addEventListener("companion:started", start, { once: true }); return; } // pair first
    if (!r || !r.ok) return;  // not in camera mode
    box = document.createElement("section");
    box.id = "camera";
    box.className = "card";
    box.dataset.testid = "camera";
    box.innerHTML = `<h2></h2><img id="camera-img" src="/camera.mjpg" alt="camera picture with what the tracker reads">` +
      `<div id="camera-info"></div>`;
    place();
    onStatus(await r.json());
    const es = new EventSource("/api/tracker/events");
    es.addEventListener("tracker", (e) => onStatus(JSON.parse(e.data)));
    document.addEventListener("companion:mounted", place); // another game's module: move into its slot
    document.addEventListener("companion:lang", () => render(last));
  }

  function place() {
    const slot = document.querySelector("#view-game [data-camera-slot]") || document.querySelector("#view-game") || document.body;
    if (box.parentElement !== slot || slot.firstElementChild !== box) slot.prepend(box);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

// The page around the app: it loads netcubes.wasm while the visitor reads,
// runs it when Start is pressed (that click is also what lets a browser
// play sound), shows the app's messages over it (main_js.go calls
// netcubesSay), and offers the recording (?record=NAME) as a download.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const intro = $("intro"), start = $("start"), load = $("load"), message = $("message");
  const download = $("download");
  let running = false, hideAt = 0;

  // Messages stay while the intro shows; over the running app they go after
  // ten seconds (a note), or at the next click.
  window.netcubesSay = (text) => {
    message.textContent += text;
    message.hidden = false;
    if (running) {
      hideAt = Date.now() + 10000;
      setTimeout(() => {
        if (running && Date.now() >= hideAt) {
          message.hidden = true;
          message.textContent = "";
        }
      }, 10100);
    }
  };

  const go = new Go();
  let instance = null;

  // The app ended (Ctrl+Q, -frames, an error, ?help): back to the intro,
  // with whatever it said and the recording.
  go.exit = (code) => {
    running = false;
    document.querySelectorAll("canvas").forEach((c) => c.remove());
    intro.hidden = false;
    start.textContent = "Start again";
    start.disabled = false;
    start.onclick = () => location.reload();
    if (code !== 0 && message.hidden) {
      window.netcubesSay("netcubes stopped (exit code " + code + "); the browser's console may say more.\n");
    }
    window.netcubesExit = code;
  };

  async function fetchApp() {
    const resp = await fetch("netcubes.wasm");
    if (!resp.ok) {
      throw new Error("netcubes.wasm: " + resp.status + " " + resp.statusText);
    }
    // Read it in pieces to say how far the download is (24 MB).
    const reader = resp.body.getReader();
    const parts = [];
    let n = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      n += value.length;
      load.textContent = "loading the app: " + (n / 1e6).toFixed(1) + " MB";
    }
    const bytes = new Uint8Array(n);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    load.textContent = "compiling…";
    return (await WebAssembly.instantiate(bytes, go.importObject)).instance;
  }

  function run() {
    intro.hidden = true;
    message.hidden = true;
    message.textContent = "";
    running = true;
    go.run(instance);
  }

  fetchApp().then((inst) => {
    instance = inst;
    load.textContent = "";
    start.textContent = "Start";
    start.disabled = false;
    start.onclick = run;
    start.focus();
  }).catch((err) => {
    start.textContent = "Cannot load the app";
    load.textContent = String(err);
  });

  if (params.has("record")) {
    download.hidden = false;
    download.onclick = () => {
      const rec = window.netcubesRecording;
      if (!rec) {
        window.netcubesSay("nothing recorded yet: the recording is kept every second\n");
      } else {
        const a = document.createElement("a");
        a.href = URL.createObjectURL(new Blob([rec.text], { type: "text/plain" }));
        a.download = rec.name.split(/[\\/]/).pop() || "recording.txt";
        a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      }
      // Give the keys back to the app.
      const canvas = document.querySelector("canvas");
      if (canvas) canvas.focus();
    };
  }
})();

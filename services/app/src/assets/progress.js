// The production page while the video is made: asks the app for the stage and render phase and
// shows them, without reloading. Once the production reaches a stage the page shows differently
// (a pitch to answer, a video, a failure), it offers a link to show it. Text only, never markup.
(function () {
  'use strict';
  var box = document.getElementById('progress');
  if (!box || !window.fetch) return;
  var url = box.getAttribute('data-progress-url');
  var interval = Number(box.getAttribute('data-interval-ms')) || 2000;
  var shownStage = box.getAttribute('data-stage');
  function part(name) { return box.querySelector('[data-field="' + name + '"]'); }
  var RESHOWN = { pitch_ready: true, delivered: true, failed: true, cancelled: true, declined: true, skipped: true };

  async function poll() {
    try {
      var response = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (!response.ok) return setTimeout(poll, interval * 2);
      var now = await response.json();
      part('stage').textContent = String(now.stage).replace(/_/g, ' ');
      part('phase').textContent = now.phase || '';
      part('phase-wrap').hidden = !now.phase;
      part('retrying').hidden = !now.retrying;
      box.setAttribute('data-stage', now.stage);
      if (now.stage !== shownStage && RESHOWN[now.stage]) {
        part('reload').hidden = false;
        return;
      }
    } catch {
      // Offline for a moment: try again later.
    }
    setTimeout(poll, interval);
  }
  setTimeout(poll, interval);
})();

// Keyboard shortcuts and small helpers for the QA conversation page.
// A static file because the Content-Security-Policy forbids inline scripts.
(function () {
  "use strict";

  var form = document.getElementById("qa-review-form") || document.getElementById("qa-adjudication-form");
  var help = document.getElementById("qa-help");
  var root = document.querySelector(".qa-conversation");
  var turns = Array.prototype.slice.call(document.querySelectorAll(".qa-turn"));
  var current = -1;

  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable);
  }

  // Pick a decision; focus the reason for an exclusion, otherwise the save button, so that
  // Enter confirms: two keystrokes, never one, for a decision that is audited.
  function choose(key) {
    if (!form) return false;
    var radio = form.querySelector('input[data-shortcut="' + key + '"]');
    if (!radio) return false;
    radio.checked = true;
    var next = key === "x" ? form.querySelector("#qa-reason") : form.querySelector("#qa-submit");
    if (next) next.focus();
    return true;
  }

  function goToTurn(step) {
    if (!turns.length) return;
    current = Math.max(0, Math.min(turns.length - 1, current + step));
    turns[current].focus();
    turns[current].scrollIntoView({ block: "start" });
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape" && help && !help.hidden) { help.hidden = true; return; }
    if (typing(event.target)) return;
    var handled = true;
    switch (event.key) {
      case "a": case "x": case "s": handled = choose(event.key); break;
      case "j": goToTurn(1); break;
      case "k": goToTurn(-1); break;
      case "f": var flags = document.getElementById("qa-flags"); if (flags) { flags.focus(); flags.scrollIntoView(); } break;
      case "n": if (root && root.dataset.nextUrl) { window.location.href = root.dataset.nextUrl; } break;
      case "?": if (help) help.hidden = !help.hidden; break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });

  // The pencil beside a value fills the correction form with that field and its value.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".qa-correct") : null;
    if (!button) return;
    var path = document.getElementById("qa-field-path");
    var value = document.getElementById("qa-value");
    if (!path || !value) return;
    path.value = button.dataset.path;
    value.value = button.dataset.value || "";
    value.focus();
    value.select();
  });
})();

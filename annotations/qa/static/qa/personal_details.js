// Keyboard shortcuts of the personal-details queue (a static file: the CSP forbids inline scripts).
(function () {
  "use strict";
  var rows = Array.prototype.slice.call(document.querySelectorAll(".qa-finding"));
  var current = rows.length ? 0 : -1;

  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
  }
  function focusRow(index) {
    if (!rows.length) return;
    current = Math.max(0, Math.min(rows.length - 1, index));
    rows[current].focus();
    rows[current].scrollIntoView({ block: "nearest" });
  }
  function press(key) {
    if (current < 0) return false;
    var control = rows[current].querySelector('[data-shortcut="' + key + '"]');
    if (!control) return false;
    if (control.tagName === "INPUT") { control.focus(); control.select(); } else { control.click(); }
    return true;
  }
  function markMissed() {
    if (current < 0) return false;
    document.getElementById("qa-missed-conversation").value = rows[current].dataset.conversation;
    var path = document.getElementById("qa-missed-path");
    path.value = rows[current].dataset.path;
    path.form.querySelector('input[name="start"]').focus();
    return true;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var handled = true;
    switch (event.key) {
      case "j": focusRow(current + 1); break;
      case "k": focusRow(current - 1); break;
      case "a": case "d": case "e": handled = press(event.key); break;
      case "m": handled = markMissed(); break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });
  if (rows.length) focusRow(0);
})();

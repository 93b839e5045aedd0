"use strict";
(function () {
  var boxes = Array.prototype.slice.call(document.querySelectorAll("input.filter"));
  var findings = Array.prototype.slice.call(document.querySelectorAll(".finding"));
  var groups = Array.prototype.slice.call(document.querySelectorAll(".edge, .route"));
  var shown = document.getElementById("shown");

  function chosen(kind) {
    var out = {};
    boxes.forEach(function (box) {
      if (box.dataset.kind === kind && box.checked) { out[box.value] = true; }
    });
    return out;
  }

  function apply() {
    var status = chosen("status");
    var verdicts = { det: chosen("det-verdict"), sem: chosen("sem-verdict") };
    var count = 0;
    findings.forEach(function (el) {
      var visible = status[el.dataset.status] === true && verdicts[el.dataset.kind][el.dataset.verdict] === true;
      el.hidden = !visible;
      if (visible) { count += 1; }
    });
    groups.forEach(function (el) {
      el.hidden = el.querySelector(".finding:not([hidden])") === null;
    });
    shown.textContent = count + " of " + findings.length + " findings shown";
  }

  boxes.forEach(function (box) { box.addEventListener("change", apply); });
  apply();
}());

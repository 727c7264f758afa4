// dbce report: filters the rows of pages.html by site, type, method, route and share kept.
// The form's settings are mirrored in the URL's fragment, so a filtered list can be linked.
(function () {
  "use strict";
  var form = document.getElementById("filter");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#pages tbody tr"));
  var shown = document.getElementById("shown");

  function settings() {
    var out = {};
    ["site", "type", "method", "route", "min", "max"].forEach(function (name) {
      out[name] = form.elements[name].value;
    });
    return out;
  }

  function apply() {
    var s = settings();
    var min = s.min === "" ? 0 : parseFloat(s.min);
    var max = s.max === "" ? 1 : parseFloat(s.max);
    var count = 0;
    rows.forEach(function (row) {
      var d = row.dataset;
      var kept = parseFloat(d.kept);
      var keep = (!s.site || d.site === s.site) && (!s.type || d.type === s.type) &&
        (!s.method || d.method === s.method) && (!s.route || d.route === s.route) &&
        kept >= min && kept <= max;
      row.hidden = !keep;
      if (keep) count += 1;
    });
    shown.textContent = String(count);
  }

  function fromFragment() {
    var params = new URLSearchParams(window.location.hash.slice(1));
    params.forEach(function (value, name) {
      if (form.elements[name]) form.elements[name].value = value;
    });
  }

  form.addEventListener("input", function () {
    var params = new URLSearchParams();
    var s = settings();
    Object.keys(s).forEach(function (name) {
      if (s[name] !== "" && !(name === "min" && s[name] === "0") &&
          !(name === "max" && s[name] === "1")) params.set(name, s[name]);
    });
    history.replaceState(null, "", "#" + params.toString());
    apply();
  });
  fromFragment();
  apply();
})();

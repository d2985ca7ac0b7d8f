// The app's only script: copy buttons, and the two passkey ceremonies (which need the browser's
// WebAuthn API). Every form works without it; it never builds markup from data.
(function () {
  'use strict';

  function csrfOf(form) {
    var field = form && form.querySelector('input[name="_csrf"]');
    return field ? field.value : '';
  }

  async function postJson(url, body, csrf) {
    var headers = { 'content-type': 'application/json' };
    if (csrf) headers['x-csrf-token'] = csrf;
    var response = await fetch(url, { method: 'POST', headers: headers, body: JSON.stringify(body || {}), credentials: 'same-origin' });
    var data = await response.json().catch(function () { return {}; });
    if (!response.ok) throw new Error(data.error || 'The request failed (' + response.status + ').');
    return data;
  }

  function say(element, message) {
    if (!element) return;
    element.textContent = message;
    element.hidden = !message;
  }

  // A form that makes something (a production: a pitch counted against the month's cap) is sent
  // once: a second click while the first is on its way would make another.
  document.querySelectorAll('form[data-submit-once]').forEach(function (form) {
    form.addEventListener('submit', function () {
      setTimeout(function () { form.querySelectorAll('button[type="submit"]').forEach(function (b) { b.disabled = true; }); }, 0);
    });
  });

  // Copy buttons: <button data-copy="id-of-input">.
  document.querySelectorAll('[data-copy]').forEach(function (button) {
    var target = document.getElementById(button.getAttribute('data-copy'));
    var status = document.querySelector('[data-copied-for="' + button.getAttribute('data-copy') + '"]');
    if (!target || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(target.value).then(function () { say(status, 'Copied.'); }, function () { target.select(); say(status, 'Select and copy the key by hand.'); });
    });
  });

  var webauthn = window.SimpleWebAuthnBrowser;
  var supported = webauthn && webauthn.browserSupportsWebAuthn();

  // Sign-in page: sign in with a passkey.
  var signIn = document.getElementById('passkey-sign-in');
  if (signIn && supported) {
    signIn.hidden = false;
    var problem = document.getElementById('passkey-problem');
    document.getElementById('passkey-sign-in-button').addEventListener('click', async function () {
      say(problem, '');
      try {
        var start = await postJson('/sign-in/passkey/options');
        var response = await webauthn.startAuthentication({ optionsJSON: start.options });
        var done = await postJson('/sign-in/passkey', { challengeId: start.challengeId, response: response });
        window.location.assign(done.redirect);
      } catch (error) {
        say(problem, error && error.name === 'NotAllowedError' ? 'The passkey prompt was closed. Try again.' : (error.message || 'Signing in with a passkey failed.'));
      }
    });
  }

  // Account page: add a passkey.
  var add = document.getElementById('add-passkey');
  if (add && supported) {
    add.hidden = false;
    var addProblem = document.getElementById('passkey-problem');
    add.addEventListener('submit', async function (event) {
      event.preventDefault();
      say(addProblem, '');
      var csrf = csrfOf(add);
      try {
        var start = await postJson('/account/passkeys/options', {}, csrf);
        var response = await webauthn.startRegistration({ optionsJSON: start.options });
        var done = await postJson('/account/passkeys', { challengeId: start.challengeId, response: response, name: add.elements.name.value }, csrf);
        window.location.assign(done.redirect);
      } catch (error) {
        say(addProblem, error && error.name === 'NotAllowedError' ? 'The passkey prompt was closed. Try again.' : (error.message || 'Adding the passkey failed.'));
      }
    });
  }
})();

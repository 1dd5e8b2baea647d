// Additions to localstripe's Stripe.js stand-in (localstripe-v3.js), appended to it by
// localstripe_server.py and served at /js.stripe.com/v3/. Local stack only: production loads the
// real https://js.stripe.com/v3/. They fill what the web app's add-card and wallet flows call
// and the stand-in lacks or does differently from Stripe.js:
// - stripe.createPaymentMethod({type: 'card', card: element, billing_details})
// - stripe.confirmCardPayment(clientSecret): confirm the PaymentIntent, and only when localstripe
//   answers requires_action show the stand-in's 3-D Secure modal; a decline comes back as
//   {error: {type: 'card_error', code: 'card_declined'}}
// - stripe.confirmCardSetup(clientSecret, {payment_method: 'pm_...'}) with an existing method
// - the card Element: change events carrying elementType, brand, empty, complete, error and
//   value (as Stripe.js's), 'ready', 'focus' and 'blur' events, off(), update(), focus(), blur(),
//   clear(), and the hidePostalCode option.
// - the split card Elements (cardNumber, cardExpiry, cardCvc), which the stand-in lacks: one
//   input each, the same events, elements.getElement(type), and the number Element standing for
//   the three in createPaymentMethod and confirmCardSetup, as in Stripe.js.
// This runs in the same classic script as the stand-in, so its top-level names (LOCALSTRIPE_BASE_API,
// openModal, the Element class) are in scope.
(function () {
  const base = window.Stripe;
  if (typeof base !== 'function' || base.__evidentiaExtras) return;

  // --- card number rules (brand detection, Luhn, lengths), as Stripe.js reports them ---------
  const BRANDS = [
    // [brand, prefix test, lengths, cvc length]
    ['amex', /^3[47]/, [15], 4],
    ['diners', /^(36|30[0-5]|3095|3[89])/, [14, 16, 19], 3],
    ['jcb', /^(352[89]|35[3-8])/, [16, 17, 18, 19], 3],
    ['unionpay', /^(62|81)/, [16, 17, 18, 19], 3],
    ['discover', /^(6011|64[4-9]|65)/, [16, 19], 3],
    ['mastercard', /^(5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/, [16], 3],
    ['visa', /^4/, [16, 19], 3],
  ];

  function brandOf(number) {
    for (const [brand, test] of BRANDS) if (test.test(number)) return brand;
    return 'unknown';
  }

  function rulesOf(brand) {
    const found = BRANDS.find(([b]) => b === brand);
    return found ? { lengths: found[2], cvc: found[3] } : { lengths: [16], cvc: 3 };
  }

  function luhn(number) {
    let sum = 0;
    for (let i = 0; i < number.length; i += 1) {
      let digit = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) {
        digit *= 2;
        if (digit > 9) digit -= 9;
      }
      sum += digit;
    }
    return sum % 10 === 0;
  }

  const MESSAGES = {
    incomplete_number: 'Your card number is incomplete.',
    invalid_number: 'Your card number is invalid.',
    incomplete_expiry: "Your card's expiration date is incomplete.",
    invalid_expiry_month: "Your card's expiration month is invalid.",
    invalid_expiry_year_past: "Your card's expiration year is in the past.",
    invalid_expiry_month_past: "Your card's expiration date is in the past.",
    incomplete_cvc: "Your card's security code is incomplete.",
    incomplete_zip: 'Your postal code is incomplete.',
  };

  const validation = (code) => ({ type: 'validation_error', code, message: MESSAGES[code] });

  function digits(value) {
    return String(value || '').replace(/\D/g, '');
  }

  /** The state of the card inputs: {brand, empty, complete, error (or undefined), card}. */
  function cardState(inputs, showPostal, strict) {
    const number = digits(inputs.number.value);
    const month = digits(inputs.exp_month.value);
    const year = digits(inputs.exp_year.value);
    const cvc = digits(inputs.cvc.value);
    const postal = String(inputs.postal_code.value || '').trim();
    const brand = number ? brandOf(number) : 'unknown';
    const rules = rulesOf(brand);
    const maxLength = Math.max(...rules.lengths);
    const empty = !number && !month && !year && !cvc && (!showPostal || !postal);

    let error;
    let complete = true;
    // The number.
    if (number.length > maxLength || (rules.lengths.includes(number.length) && !luhn(number))) {
      error = validation('invalid_number');
    } else if (!rules.lengths.includes(number.length) || !luhn(number)) {
      complete = false;
      if (strict && number) error = validation(number.length >= Math.min(...rules.lengths) ? 'invalid_number' : 'incomplete_number');
    }
    // The expiry.
    if (!error) {
      const m = Number(month);
      if (month && (m > 12 || (month.length === 2 && m < 1))) {
        error = validation('invalid_expiry_month');
      } else if (month.length < 1 || year.length < 2) {
        complete = false;
        if (strict && (month || year)) error = validation('incomplete_expiry');
      } else {
        const now = new Date();
        const fullYear = 2000 + Number(year.slice(-2));
        if (fullYear < now.getFullYear()) error = validation('invalid_expiry_year_past');
        else if (fullYear === now.getFullYear() && m < now.getMonth() + 1) error = validation('invalid_expiry_month_past');
      }
    }
    // The security code.
    if (!error && cvc.length < rules.cvc) {
      complete = false;
      if (strict && cvc) error = validation('incomplete_cvc');
    }
    if (!error && showPostal && !postal) complete = false;
    if (error) complete = false;

    return {
      brand,
      empty,
      complete,
      error,
      card: { number, exp_month: month, exp_year: year ? String(2000 + Number(year.slice(-2))) : '', cvc },
      postal,
    };
  }

  // --- the card Element ----------------------------------------------------------------------
  const proto = Element.prototype;
  const baseMount = proto.mount;
  const baseUnmount = proto.unmount;

  proto.emit = function (event, payload) {
    (this.listeners[event] || []).slice().forEach((handler) => handler(payload));
  };

  proto.off = function (event, handler) {
    const list = this.listeners[event] || [];
    const at = list.indexOf(handler);
    if (at >= 0) list.splice(at, 1);
  };

  const baseOn = proto.on;
  proto.on = function (event, handler) {
    baseOn.call(this, event, handler);
    // Stripe.js fires 'ready' once the element is mounted; a listener attached after that
    // (React attaches after mounting) still hears it.
    if (event === 'ready' && this._inputs) setTimeout(() => handler({ elementType: 'card' }), 0);
  };

  proto._report = function (strict) {
    if (!this._inputs) return;
    const showPostal = !(this._options && this._options.hidePostalCode);
    const state = cardState(this._inputs, showPostal, strict);
    this.value = { card: state.card, postal_code: state.postal };
    this.emit('change', {
      elementType: 'card',
      empty: state.empty,
      complete: state.complete,
      error: state.error,
      brand: state.brand,
      value: { postalCode: state.postal },
    });
  };

  proto.mount = function (domElement) {
    baseMount.call(this, domElement);
    if (!this._inputs) return;
    const showPostal = !(this._options && this._options.hidePostalCode);
    if (!showPostal) this._inputs.postal_code.style.display = 'none';
    const labels = { number: 'Card number', exp_month: 'MM', exp_year: 'YY', cvc: 'CVC', postal_code: 'ZIP' };
    Object.keys(this._inputs).forEach((field) => {
      const input = this._inputs[field];
      input.setAttribute('name', `localstripe-${field}`);
      input.setAttribute('aria-label', labels[field]);
      input.setAttribute('inputmode', field === 'postal_code' ? 'text' : 'numeric');
      input.setAttribute('autocomplete', 'off');
      const original = input.oninput;
      input.oninput = (event) => {
        // The stand-in's own handler calls 'change' listeners without an event: keep them out.
        const listeners = this.listeners.change;
        this.listeners.change = [];
        try {
          original(event);
        } finally {
          this.listeners.change = listeners;
        }
        this._report(false);
      };
      input.addEventListener('focus', () => this.emit('focus', { elementType: 'card' }));
      input.addEventListener('blur', () => {
        // Incomplete-field errors appear once the user leaves the element, as in Stripe.js.
        setTimeout(() => {
          if (!this._inputs) return;
          const inside = Object.values(this._inputs).includes(document.activeElement);
          if (!inside) {
            this._report(true);
            this.emit('blur', { elementType: 'card' });
          }
        }, 0);
      });
    });
    this.value = { card: cardState(this._inputs, showPostal, false).card, postal_code: '' };
    setTimeout(() => this.emit('ready', { elementType: 'card' }), 0);
  };

  proto.unmount = function () {
    baseUnmount.call(this);
  };

  proto.update = function (options) {
    this._options = Object.assign({}, this._options, options);
    if (this._inputs) this._inputs.postal_code.style.display = this._options.hidePostalCode ? 'none' : '';
  };

  proto.focus = function () {
    if (this._inputs) this._inputs.number.focus();
  };

  proto.blur = function () {
    if (this._inputs && Object.values(this._inputs).includes(document.activeElement)) document.activeElement.blur();
  };

  proto.clear = function () {
    if (!this._inputs) return;
    Object.values(this._inputs).forEach((input) => {
      input.value = '';
    });
    this._report(false);
  };

  // --- the split card Elements ----------------------------------------------------------------
  // Each is one input; the Elements of one group make one card, read through any of them
  // (`value`, as the stand-in's card Element has it).
  const SPLIT = {
    cardNumber: { field: 'number', placeholder: '1234 1234 1234 1234', label: 'Card number' },
    cardExpiry: { field: 'expiry', placeholder: 'MM / YY', label: 'Expiration date' },
    cardCvc: { field: 'cvc', placeholder: 'CVC', label: 'Security code' },
  };

  /** The group's inputs as the stand-in's card inputs, so cardState() judges the whole card. */
  function groupInputs(group) {
    const read = (type) => (group._split[type] && group._split[type]._input ? group._split[type]._input.value : '');
    const expiry = digits(read('cardExpiry'));
    return {
      number: { value: read('cardNumber') },
      exp_month: { value: expiry.slice(0, 2) },
      exp_year: { value: expiry.slice(2, 4) },
      cvc: { value: read('cardCvc') },
      postal_code: { value: '' },
    };
  }

  /** What one split Element reports: its own emptiness, completeness and error. */
  function splitState(type, group, strict) {
    const inputs = groupInputs(group);
    const number = digits(inputs.number.value);
    const brand = number ? brandOf(number) : 'unknown';
    const rules = rulesOf(brand);
    if (type === 'cardNumber') {
      const maxLength = Math.max(...rules.lengths);
      if (number.length > maxLength || (rules.lengths.includes(number.length) && !luhn(number))) {
        return { empty: false, complete: false, error: validation('invalid_number'), brand };
      }
      const complete = rules.lengths.includes(number.length) && luhn(number);
      const error = !complete && strict && number ? validation(number.length >= Math.min(...rules.lengths) ? 'invalid_number' : 'incomplete_number') : undefined;
      return { empty: !number, complete, error, brand };
    }
    if (type === 'cardExpiry') {
      const month = digits(inputs.exp_month.value);
      const year = digits(inputs.exp_year.value);
      const m = Number(month);
      if (month && (m > 12 || (month.length === 2 && m < 1))) {
        return { empty: false, complete: false, error: validation('invalid_expiry_month') };
      }
      if (month.length < 2 || year.length < 2) {
        const error = strict && (month || year) ? validation('incomplete_expiry') : undefined;
        return { empty: !month && !year, complete: false, error };
      }
      const now = new Date();
      const fullYear = 2000 + Number(year);
      if (fullYear < now.getFullYear()) return { empty: false, complete: false, error: validation('invalid_expiry_year_past') };
      if (fullYear === now.getFullYear() && m < now.getMonth() + 1) {
        return { empty: false, complete: false, error: validation('invalid_expiry_month_past') };
      }
      return { empty: false, complete: true, error: undefined };
    }
    const cvc = digits(inputs.cvc.value);
    const complete = cvc.length >= rules.cvc;
    return { empty: !cvc, complete, error: !complete && strict && cvc ? validation('incomplete_cvc') : undefined };
  }

  /** 'MM / YY' as Stripe.js writes it while the user types: a first digit above 1 is a month. */
  function formatExpiry(value) {
    let d = digits(value);
    if (d.length === 1 && d > '1') d = `0${d}`;
    d = d.slice(0, 4);
    return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
  }

  class SplitElement extends Element {
    constructor(group, type, options) {
      super(group);
      this._group = group;
      this._type = type;
      this._options = Object.assign({}, options);
      this._input = null;
    }

    get value() {
      const card = cardState(groupInputs(this._group), false, false).card;
      return { card, postal_code: '' };
    }

    set value(_ignored) {}

    mount(domElement) {
      if (typeof domElement === 'string') domElement = document.querySelector(domElement);
      if (!(domElement instanceof window.Element)) throw new Error('Invalid DOM element.');
      if (this._input) throw new Error('This Element is already mounted.');
      const spec = SPLIT[this._type];
      const input = document.createElement('input');
      input.setAttribute('type', 'text');
      input.setAttribute('name', `localstripe-${spec.field}`);
      input.setAttribute('aria-label', spec.label);
      input.setAttribute('placeholder', (this._options && this._options.placeholder) || spec.placeholder);
      input.setAttribute('inputmode', 'numeric');
      input.setAttribute('autocomplete', 'off');
      input.setAttribute('maxlength', this._type === 'cardNumber' ? '23' : this._type === 'cardExpiry' ? '7' : '4');
      input.addEventListener('input', () => {
        if (this._type === 'cardExpiry') input.value = formatExpiry(input.value);
        if (this._type === 'cardCvc') input.value = digits(input.value);
        this._report(false);
        // The number decides how long a security code is.
        if (this._type === 'cardNumber' && this._group._split.cardCvc) this._group._split.cardCvc._report(false);
      });
      input.addEventListener('focus', () => this.emit('focus', { elementType: this._type }));
      input.addEventListener('blur', () => {
        // Incomplete-field errors appear once the user leaves the field, as in Stripe.js.
        this._report(true);
        this.emit('blur', { elementType: this._type });
      });
      domElement.appendChild(input);
      this._input = input;
      setTimeout(() => this.emit('ready', { elementType: this._type }), 0);
    }

    _report(strict) {
      if (!this._input) return;
      const state = splitState(this._type, this._group, strict);
      const event = { elementType: this._type, empty: state.empty, complete: state.complete, error: state.error };
      if (this._type === 'cardNumber') event.brand = state.brand;
      this.emit('change', event);
    }

    on(event, handler) {
      this.listeners[event] = this.listeners[event] || [];
      this.listeners[event].push(handler);
      if (event === 'ready' && this._input) setTimeout(() => handler({ elementType: this._type }), 0);
    }

    unmount() {
      if (this._input) this._input.remove();
      this._input = null;
    }

    destroy() {
      this.unmount();
      if (this._group._split[this._type] === this) this._group._split[this._type] = null;
    }

    update(options) {
      this._options = Object.assign({}, this._options, options);
      if (this._input && options && options.placeholder) this._input.setAttribute('placeholder', options.placeholder);
    }

    focus() {
      if (this._input) this._input.focus();
    }

    blur() {
      if (this._input && document.activeElement === this._input) this._input.blur();
    }

    clear() {
      if (!this._input) return;
      this._input.value = '';
      this._report(false);
    }
  }

  // --- calls to localstripe ------------------------------------------------------------------
  async function post(path, body) {
    const response = await fetch(`${LOCALSTRIPE_BASE_API}${path}`, { method: 'POST', body: JSON.stringify(body) });
    const json = await response.json().catch(() => ({}));
    return { ok: response.status === 200 && !json.error, status: response.status, json };
  }

  function providerError(json, fallback) {
    const error = Object.assign({ type: 'api_error', message: fallback }, (json && json.error) || {});
    if (error.code === 'card_declined' || error.code === 'expired_card' || error.code === 'incorrect_cvc') error.type = 'card_error';
    return error;
  }

  function failure(err) {
    if (err && typeof err === 'object' && err.error) return err;
    return { error: { type: 'api_connection_error', message: String((err && err.message) || err) } };
  }

  function cardOf(elementOrCard) {
    if (elementOrCard instanceof Element) {
      if (!elementOrCard.value) return null;
      const { number, exp_month: month, exp_year: year, cvc } = elementOrCard.value.card;
      return { number: digits(number), exp_month: month, exp_year: year, cvc: digits(cvc) };
    }
    return elementOrCard;
  }

  function withExtras(apiKey) {
    const stripe = base(apiKey);
    const baseElements = stripe.elements;
    const baseConfirmCardSetup = stripe.confirmCardSetup;
    const baseConfirmCardPayment = stripe.confirmCardPayment;

    stripe.elements = (elementsOptions) => {
      const elements = baseElements(elementsOptions);
      const create = elements.create;
      const getElement = elements.getElement;
      elements._split = {};
      elements.create = function (type, options) {
        if (SPLIT[type]) {
          if (this._split[type]) throw new Error(`Can only create one Element of type ${type}`);
          this._split[type] = new SplitElement(this, type, options);
          return this._split[type];
        }
        const element = create.call(this, type, options);
        element._options = Object.assign({}, options);
        return element;
      };
      // Stripe.js takes a type, or a React component carrying its type (react-stripe-js's
      // `getElement(CardNumberElement)`).
      elements.getElement = function (typeOrComponent) {
        const type = typeof typeOrComponent === 'string' ? typeOrComponent : typeOrComponent && typeOrComponent.__elementType;
        if (SPLIT[type]) return this._split[type] || null;
        return getElement.call(this, type);
      };
      elements.update = () => {};
      return elements;
    };

    stripe.createPaymentMethod = async (data) => {
      console.log('localstripe: Stripe().createPaymentMethod()');
      try {
        if (!data || data.type !== 'card') {
          return { error: { type: 'invalid_request_error', message: 'Only card payment methods are supported locally.' } };
        }
        const card = cardOf(data.card);
        if (!card) return { error: validation('incomplete_number') };
        const element = data.card instanceof Element ? data.card : null;
        const billing = Object.assign({}, data.billing_details || {});
        if (element && element.value && element.value.postal_code) {
          billing.address = Object.assign({ postal_code: element.value.postal_code }, billing.address || {});
        }
        const body = { key: apiKey, type: 'card', card, billing_details: billing };
        if (data.metadata) body.metadata = data.metadata;
        const { ok, json } = await post('/v1/payment_methods', body);
        if (!ok) return { error: providerError(json, 'Card was not created.') };
        return { paymentMethod: json };
      } catch (err) {
        return failure(err);
      }
    };

    stripe.confirmCardSetup = async (clientSecret, data) => {
      if (!data || typeof data.payment_method !== 'string') {
        const result = await baseConfirmCardSetup(clientSecret, data);
        if (result && result.error) result.error = providerError({ error: result.error }, result.error.message);
        return result;
      }
      console.log('localstripe: Stripe().confirmCardSetup() with a saved payment method');
      try {
        const seti = clientSecret.match(/^(seti_\w+)_secret_/)[1];
        let { ok, json } = await post(`/v1/setup_intents/${seti}/confirm`, {
          key: apiKey,
          use_stripe_sdk: true,
          client_secret: clientSecret,
          payment_method: data.payment_method,
        });
        if (!ok) return { error: providerError(json, 'The card setup failed.') };
        if (json.status === 'requires_action') {
          const confirmed = await openModal('3D Secure\nDo you want to confirm or cancel?', 'Complete authentication', 'Fail authentication');
          ({ ok, json } = await post(`/v1/setup_intents/${seti}/${confirmed ? 'confirm' : 'cancel'}`, {
            key: apiKey,
            use_stripe_sdk: true,
            client_secret: clientSecret,
          }));
          if (!ok) return { error: providerError(json, 'The card setup failed.') };
          if (json.status !== 'succeeded') {
            return {
              error: {
                type: 'card_error',
                code: 'setup_intent_authentication_failure',
                message: 'The latest attempt to set up the payment method has failed because authentication failed.',
              },
            };
          }
        }
        if (json.status !== 'succeeded') return { error: { type: 'api_error', message: `setup_intent has status ${json.status}` } };
        return { setupIntent: json };
      } catch (err) {
        return failure(err);
      }
    };

    stripe.confirmCardPayment = async (clientSecret, data) => {
      console.log('localstripe: Stripe().confirmCardPayment()');
      try {
        if (data && data.payment_method) {
          // localstripe cannot change the method at confirmation: the server sets it at creation.
          return { error: { type: 'invalid_request_error', message: 'Set the payment method when the PaymentIntent is created.' } };
        }
        const pi = clientSecret.match(/^(pi_\w+)_secret_/)[1];
        const { ok, json } = await post(`/v1/payment_intents/${pi}/confirm`, { key: apiKey, client_secret: clientSecret });
        if (!ok) return { error: providerError(json, 'The payment failed.') };
        if (json.status === 'requires_action') {
          const result = await baseConfirmCardPayment(clientSecret, data);
          if (result.error) return { error: providerError({ error: result.error }, 'The payment failed.') };
          if (result.paymentIntent && result.paymentIntent.last_payment_error) {
            return { error: providerError({ error: result.paymentIntent.last_payment_error }, 'The payment failed.') };
          }
          return result;
        }
        if (json.last_payment_error || json.status === 'requires_payment_method') {
          const cause = json.last_payment_error || { code: 'card_declined', message: 'Your card was declined.' };
          return { error: Object.assign(providerError({ error: cause }, 'Your card was declined.'), { payment_intent: json }) };
        }
        return { paymentIntent: json };
      } catch (err) {
        return failure(err);
      }
    };

    return stripe;
  }

  withExtras.__evidentiaExtras = true;
  window.Stripe = withExtras;
})();

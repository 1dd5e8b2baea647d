//! Values parsed once at the edge (docs/decisions.md "Payments: input ranges and Stripe ids"):
//! the Stripe ids a client may send, checked against Stripe's shape before any lookup or Stripe
//! call, so raw input never reaches a Stripe URL.

use std::fmt;

use evidentia_common::errors::FieldError;

/// Stripe documents that its object ids never exceed 255 characters.
pub const STRIPE_ID_MAX: usize = 255;

/// `<prefix>_` then 1 or more ASCII letters and digits, at most `STRIPE_ID_MAX` in all.
fn stripe_id(prefix: &str, value: &str) -> bool {
    value.len() <= STRIPE_ID_MAX
        && value
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('_'))
            .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
}

macro_rules! stripe_id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(String);

        impl $name {
            pub const PREFIX: &'static str = $prefix;

            /// Surrounding spaces are forgiven; anything else off the shape is the field's error.
            pub fn parse(field: &str, value: &str) -> Result<Self, FieldError> {
                let value = value.trim();
                if value.is_empty() {
                    return Err(FieldError::new(field, "This field is required"));
                }
                if !stripe_id($prefix, value) {
                    return Err(FieldError::new(
                        field,
                        concat!(
                            "Expected a Stripe ",
                            $what,
                            " id: ",
                            $prefix,
                            "_ followed by letters and digits."
                        ),
                    ));
                }
                Ok(Self(value.to_owned()))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

stripe_id_type!(
    /// A card the browser created with Stripe.js (`pm_...`).
    PaymentMethodId,
    "pm",
    "payment method"
);
stripe_id_type!(
    /// The user's Stripe customer (`cus_...`).
    CustomerId,
    "cus",
    "customer"
);
stripe_id_type!(
    /// A SetupIntent (`seti_...`).
    SetupIntentId,
    "seti",
    "setup intent"
);
stripe_id_type!(
    /// A PaymentIntent (`pi_...`).
    PaymentIntentId,
    "pi",
    "payment intent"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(value: &str) -> String {
        PaymentMethodId::parse("payment_method_id", value)
            .expect_err("refused")
            .message
    }

    #[test]
    fn stripe_ids_have_their_prefix_and_only_letters_and_digits() {
        let id = PaymentMethodId::parse("payment_method_id", " pm_1AbC9xYz ").unwrap();
        assert_eq!(id.as_str(), "pm_1AbC9xYz");
        assert_eq!(refused(""), "This field is required");
        for bad in [
            "é",
            " ",
            "a\r\nb",
            "../x",
            "pm_X?expand[]=customer",
            "pm_",
            "pm_a/b",
            "pm_a%2F",
            "pm_é",
            "cus_abc",
            "PM_abc",
            "pm-abc",
        ] {
            let message = PaymentMethodId::parse("payment_method_id", bad).map(|_| ());
            assert!(message.is_err(), "{bad:?} was accepted");
        }
        assert_eq!(
            refused("pm_X?expand[]=customer"),
            "Expected a Stripe payment method id: pm_ followed by letters and digits."
        );
    }

    #[test]
    fn stripe_ids_are_bounded_in_length() {
        let longest = format!("pm_{}", "a".repeat(STRIPE_ID_MAX - 3));
        assert!(PaymentMethodId::parse("f", &longest).is_ok());
        assert!(PaymentMethodId::parse("f", &format!("{longest}a")).is_err());
    }

    #[test]
    fn each_kind_of_id_has_its_own_prefix() {
        assert!(CustomerId::parse("f", "cus_Q1w2").is_ok());
        assert!(CustomerId::parse("f", "pm_Q1w2").is_err());
        assert!(SetupIntentId::parse("f", "seti_Q1w2").is_ok());
        assert!(PaymentIntentId::parse("f", "pi_Q1w2").is_ok());
        assert!(PaymentIntentId::parse("f", "pi_Q1w2_secret_x").is_err());
    }
}

//! (being written) Trigger matching: ranking skills against a text.

-- +goose Up
-- Apple Wallet passes that update themselves (Apple's "Adding a Web Service to Update Passes").
-- Each pass carries an authenticationToken: random, stored hashed for checking the devices'
-- calls and sealed (AES-GCM under SECRET_KEY) so that a rebuilt pass carries the same token.
CREATE TABLE apple_pass_tokens (
    user_id       bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    serial_number text NOT NULL UNIQUE,
    token_hash    char(64) NOT NULL,
    token_sealed  text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);

-- The devices that installed a pass and the push token to tell them it changed.
CREATE TABLE apple_pass_registrations (
    device_library_id text NOT NULL CHECK (length(device_library_id) BETWEEN 1 AND 128),
    pass_type_id      text NOT NULL,
    serial_number     text NOT NULL REFERENCES apple_pass_tokens (serial_number) ON DELETE CASCADE,
    push_token        text NOT NULL CHECK (length(push_token) BETWEEN 1 AND 256),
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (device_library_id, pass_type_id, serial_number)
);
CREATE INDEX apple_pass_registrations_serial_idx ON apple_pass_registrations (serial_number);

-- The development stand-in of APNs writes its pushes to the development inbox.
ALTER TABLE dev_messages DROP CONSTRAINT dev_messages_channel_check,
    ADD CONSTRAINT dev_messages_channel_check CHECK (channel IN ('whatsapp', 'sms', 'email', 'apns'));

-- +goose Down
DROP TABLE apple_pass_registrations;
DROP TABLE apple_pass_tokens;

-- The dashboard's throttle history (issue 24): every deletion replica's throttle per store, as published on
-- erasure.throttle.samples every few seconds, kept erasure.dashboard.throttle-history (24 h) and then pruned.
-- Display only: nothing in the control plane decides on these rows.
CREATE TABLE throttle_samples (
    replica     TEXT             NOT NULL,
    store       TEXT             NOT NULL,
    sampled_at  TIMESTAMPTZ      NOT NULL,
    limit_rps   INTEGER          NOT NULL,
    floor_rps   INTEGER          NOT NULL,
    cap_rps     INTEGER          NOT NULL,
    rate_rps    INTEGER          NOT NULL,
    utilization DOUBLE PRECISION NOT NULL,
    decision    TEXT             NOT NULL,
    reason      TEXT             NOT NULL,
    -- this control plane's clock: whether a replica still reports does not depend on the replica's clock
    received_at TIMESTAMPTZ      NOT NULL DEFAULT now(),
    PRIMARY KEY (store, sampled_at, replica)
);

CREATE INDEX throttle_samples_by_time ON throttle_samples (sampled_at);
CREATE INDEX throttle_samples_by_arrival ON throttle_samples (received_at);

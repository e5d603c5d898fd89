-- Runs spread over a window (issue 19): how many keys of each paced run the fleet has done, added in the statement
-- that records each of its batches (once, by batch id and scope), so every replica paces the run on what is left of
-- it with one key lookup per batch, however many batches the run already has.
CREATE TABLE spread_progress (
    run_id    TEXT   NOT NULL,
    dataset   TEXT   NOT NULL,
    keys_done BIGINT NOT NULL CHECK (keys_done >= 0),
    PRIMARY KEY (run_id, dataset)
);

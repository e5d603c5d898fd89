CREATE TABLE customers (
    id          bigint PRIMARY KEY,
    name        text NOT NULL,
    departed_at timestamptz
);
INSERT INTO customers (id, name, departed_at) VALUES
    (1, 'stays', NULL),
    (2, 'left', now() - interval '40 days'),
    (3, 'left too', now() - interval '1 day');

CREATE TABLE started_late (id int PRIMARY KEY);

-- A run freezes the identifier source it starts with, as it freezes the dataset spec.
ALTER TABLE runs ADD COLUMN identifier_source JSONB;

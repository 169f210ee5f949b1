-- The exact bytes an inbox received, beside the text it shows (`corpo`, where a NUL
-- is replaced): `listen` forwards these bytes to a developer's receiver, whose own
-- check of the signature must see what was signed. Rows stored before this column
-- existed have none; they are forwarded from `corpo`.
alter table inbox_events add column corpo_bruto bytea;

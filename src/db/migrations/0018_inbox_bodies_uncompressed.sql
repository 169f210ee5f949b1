-- Inbox bodies (up to 64 KB, kept as text and as bytes) are stored out of line without
-- compression: compressing them was most of the cost of storing one on the embedded
-- database, and a preview of the first characters (the viewer's) then reads only the
-- first chunks of the text. Applies to what is stored from now on.
alter table inbox_events alter column corpo set storage external;
alter table inbox_events alter column corpo_bruto set storage external;

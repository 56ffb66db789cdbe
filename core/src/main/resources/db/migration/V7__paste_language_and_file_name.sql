-- What a paste is, as its creator labelled it (docs/design.md, "Web page"): the language the web page highlights
-- it as (one of the vendored highlighter's, checked by the create function) and a file name for downloads.
-- Both optional; NULL for pastes from before them, which the page treats as unlabelled (it detects the language).
ALTER TABLE pastes ADD COLUMN language VARCHAR(32);
ALTER TABLE pastes ADD COLUMN file_name VARCHAR(128);

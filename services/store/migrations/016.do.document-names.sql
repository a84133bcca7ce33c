-- Names a document is also cited by (issue 21): a collective agreement's short title (« Bureaux
-- d'études techniques… ») and usual names (« Syntec », « IDCC 1486 »). Citations and search read
-- them beside the title.
ALTER TABLE documents ADD COLUMN short_title text;
ALTER TABLE documents ADD COLUMN aliases text[] NOT NULL DEFAULT '{}';

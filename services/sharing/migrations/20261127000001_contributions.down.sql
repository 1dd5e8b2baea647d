DROP TABLE contribution_submissions;
DROP TABLE contributors;
DROP TABLE contributor_codes;
DROP TABLE contribution_links;

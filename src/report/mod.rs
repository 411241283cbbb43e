//! Report writers: JSON, CSV, Markdown, and charts (plotters) for the FAQ report.

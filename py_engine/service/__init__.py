"""What a front end talks to: matches and records, tables (who sees and does what), views and the JSON protocol."""

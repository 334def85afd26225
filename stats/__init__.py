"""Site-wide ratings and player statistics, from every finished match (issue #10 item 6)."""

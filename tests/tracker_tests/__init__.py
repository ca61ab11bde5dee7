"""Tests of the tracker (tracker/): scripted observation sequences for each situation of real play."""

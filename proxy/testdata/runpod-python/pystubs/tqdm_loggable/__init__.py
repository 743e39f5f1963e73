"""Stub of tqdm-loggable (not on Debian): runpod-python imports it only in
rp_upload at import time; the GraphQL calls never use it."""

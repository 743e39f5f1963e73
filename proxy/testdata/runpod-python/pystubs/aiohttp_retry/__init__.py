"""Stub of aiohttp-retry (not on Debian): runpod-python imports it only in
serverless/modules/rp_http at import time; the GraphQL calls never use it."""


class FibonacciRetry:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("aiohttp_retry stub")


class RetryClient:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("aiohttp_retry stub")

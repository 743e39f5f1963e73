from tqdm.auto import tqdm  # noqa: F401  (stub: plain tqdm)

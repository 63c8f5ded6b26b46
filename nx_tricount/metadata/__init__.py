"""What NetworkX reads while ``import networkx`` runs, and nothing heavy: the
catalog of what the backend offers (:mod:`.catalog`), the configuration derived
from it (:mod:`.config`), and the backend info (:mod:`.info`). Standard library
and NetworkX only."""

"""What NetworkX reads while ``import networkx`` runs, and nothing heavy: the
catalog of what the backend offers (:mod:`.catalog`), the configuration derived
from it (:mod:`.config`), what the backend says of each NetworkX function
(:mod:`.functions`), and the backend info (:mod:`.info`). Standard library
and NetworkX only."""

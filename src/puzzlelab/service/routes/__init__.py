"""The service's routes, one APIRouter per concern: puzzles (and their catalogs), jobs,
records, health, and the page. `service.app.create_app` includes them all."""

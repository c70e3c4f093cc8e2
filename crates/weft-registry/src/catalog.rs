//! (being written) The skill catalog: budget, fitting, weft and XML renderers.

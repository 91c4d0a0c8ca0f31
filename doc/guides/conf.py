# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Sphinx configuration of the guides (doc/meson.build passes the version).

project = 'dpdk-ism'
copyright = '2026, The dpdk-ism authors'
author = 'The dpdk-ism authors'

master_doc = 'index'
exclude_patterns = ['_build']
# Every cross-reference must resolve (sphinx-build -n as well).
nitpicky = True

html_theme = 'alabaster'
html_show_sourcelink = False
html_show_sphinx = False
html_copy_source = False

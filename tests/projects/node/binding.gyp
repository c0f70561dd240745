{
  "targets": [{
    "target_name": "overflow",
    "sources": ["overflow.c"],
    "conditions": [["'<!(echo $UKASAN_BUG)'=='1'", {"defines": ["BUG"]}]]
  }]
}

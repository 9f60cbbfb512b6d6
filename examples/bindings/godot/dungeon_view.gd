# Draws a DungeonMap's cells as coloured squares (attach to a Node2D with a
# DungeonMap child named "DungeonMap").
extends Node2D

const CELL := 8
const COLOURS := [Color("141414"), Color("c8bea0"), Color("8c8270"), Color("4a5568"), Color("b5651d")]

func _ready() -> void:
    if not $DungeonMap.generate("attach seed=42 width=80 height=50"):
        push_error($DungeonMap.last_error())
    queue_redraw()

func _draw() -> void:
    var cells: PackedByteArray = $DungeonMap.cells()
    var w: int = $DungeonMap.width()
    for i in cells.size():
        var t := cells[i]
        if t != 0:
            draw_rect(Rect2((i % w) * CELL, (i / w) * CELL, CELL, CELL), COLOURS[min(t, COLOURS.size() - 1)])

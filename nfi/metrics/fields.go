package metrics

import "github.com/polynfi/polynfi/syntax"

// fields of the hot visitors (Halstead, the complexity tracker), looked up
// by number (syntax.FieldKey)
var (
	fieldAlternative = syntax.NewFieldKey("alternative")
	fieldArgument    = syntax.NewFieldKey("argument")
	fieldAttribute   = syntax.NewFieldKey("attribute")
	fieldBody        = syntax.NewFieldKey("body")
	fieldDefinition  = syntax.NewFieldKey("definition")
	fieldLeft        = syntax.NewFieldKey("left")
	fieldName        = syntax.NewFieldKey("name")
	fieldOperator    = syntax.NewFieldKey("operator")
	fieldRight       = syntax.NewFieldKey("right")
)

// binaryFields returns the first children of n in the fields left,
// operator and right (NoNode for those absent), in one pass over the
// children: those of a binary operator or an augmented assignment.
func binaryFields(t *syntax.Tree, n syntax.NodeID) (left, op, right syntax.NodeID) {
	left, op, right = syntax.NoNode, syntax.NoNode, syntax.NoNode
	l, o, r := fieldLeft.ID(), fieldOperator.ID(), fieldRight.ID()
	for c := t.Nodes[n].FirstChild; c != syntax.NoNode; c = t.Nodes[c].NextSibling {
		switch id := t.Nodes[c].FieldID; {
		case id == 0:
		case id == l && left == syntax.NoNode:
			left = c
		case id == o && op == syntax.NoNode:
			op = c
		case id == r && right == syntax.NoNode:
			right = c
		}
	}
	return left, op, right
}
